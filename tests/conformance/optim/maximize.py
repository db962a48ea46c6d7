# maximize=True on AdamW, RMSprop and Adagrad: each steps up the gradient (grad = -grad first)
torch.manual_seed(15)
ps = [torch.randn(3, requires_grad=True) for i in range(3)]
opts = [torch.optim.AdamW([ps[0]], lr=0.05, maximize=True),
        torch.optim.RMSprop([ps[1]], lr=0.01, maximize=True, centered=True),
        torch.optim.Adagrad([ps[2]], lr=0.1, maximize=True, lr_decay=0.1)]
for i in range(4):
    for opt, p in zip(opts, ps):
        opt.zero_grad()
        (-(p - 1) ** 2).sum().backward()
        opt.step()
for p in ps:
    print(p)
print([o.param_groups[0]["maximize"] for o in opts])
