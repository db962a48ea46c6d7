# a TensorDataset over a tensor that requires grad: items are SelectBackward0 views, batches StackBackward0
w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(w), batch_size=2)
total = 0
for (xb,) in loader:
    print(xb.grad_fn, xb.requires_grad)
    total = total + (xb * xb).sum()
total.backward()
print(w.grad)
