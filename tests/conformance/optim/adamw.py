# AdamW: decoupled weight decay (param.mul_(1 - lr * weight_decay)), default weight_decay 0.01; amsgrad too
torch.manual_seed(6)
a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
opt1 = torch.optim.AdamW([a], lr=0.01)
opt2 = torch.optim.AdamW([b], lr=0.05, weight_decay=0.3, amsgrad=True)
for i in range(6):
    for opt, p in ((opt1, a), (opt2, b)):
        opt.zero_grad()
        (p.tanh() * p).sum().backward()
        opt.step()
print(a)
print(b)
print(opt1.param_groups[0]["weight_decay"], opt1.param_groups[0]["decoupled_weight_decay"])
