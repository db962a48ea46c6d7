# SGD without options: param.add_(grad, alpha=-lr) each step; the parameter keeps requires_grad and stays a leaf
torch.manual_seed(0)
w = torch.randn(4, requires_grad=True)
x = torch.randn(4)
opt = torch.optim.SGD([w], lr=0.1)
for i in range(5):
    opt.zero_grad()
    loss = ((w * x - 1) ** 2).sum()
    loss.backward()
    opt.step()
    print(i, loss.item())
print(w)
print(len(opt.state))
