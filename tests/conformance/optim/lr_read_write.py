# opt.param_groups[0]["lr"] is a plain dict entry: writing it changes the next steps
torch.manual_seed(11)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for i in range(6):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    if i == 2:
        for g in opt.param_groups:
            g["lr"] = g["lr"] * 0.1
    print(i, opt.param_groups[0]["lr"])
print(w)
print(opt.defaults["lr"], opt.defaults["betas"])
