# step(closure): the closure runs with grad enabled (re-evaluates the loss), its result is step's result
torch.manual_seed(14)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
opt = torch.optim.SGD([w], lr=0.1)
def closure():
    opt.zero_grad()
    loss = ((w - x) ** 2).sum()
    loss.backward()
    return loss
for i in range(3):
    loss = opt.step(closure)
    print(loss.item())
with torch.no_grad():
    loss = opt.step(closure)
print(loss.grad_fn, w)
