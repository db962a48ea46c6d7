# log_softmax's float32 backward of 0-d and 1-element inputs
x = torch.tensor(1.5, requires_grad=True)
y = F.log_softmax(x, dim=-1)
y.backward()
print(x.grad)
y2 = F.log_softmax(x, dim=0) * 2
y2.backward()
print(x.grad)
z = torch.tensor([1.5], requires_grad=True)
F.log_softmax(z, 0).sum().backward()
print(z.grad)
