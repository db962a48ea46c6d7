# SGD with momentum: the first step copies the gradient into momentum_buffer, later steps mul_ and add_ into it
torch.manual_seed(1)
w = torch.randn(3, 2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05, momentum=0.9)
for i in range(4):
    opt.zero_grad()
    (w.sin() * w).sum().backward()
    opt.step()
print(w)
buf = opt.state[w]["momentum_buffer"]
print(buf)
print(buf.requires_grad, buf.is_leaf, buf.grad_fn)
