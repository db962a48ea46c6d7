# a training loop over shuffled mini-batches: TensorDataset + DataLoader(shuffle=True) + SGD on plain tensors
torch.manual_seed(0)
X = torch.randn(40, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ true_w + 0.1 * torch.randn(40, 1)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=8, shuffle=True)
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = ((xb @ w + b - yb) ** 2).mean()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(epoch, round(total / len(loader.dataset), 4))
print(w, b)
