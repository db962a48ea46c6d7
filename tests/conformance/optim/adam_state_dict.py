# Adam's state_dict holds step tensors and moments; loading it resumes the same trajectory
torch.manual_seed(13)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.05, amsgrad=True)
for i in range(3):
    opt.zero_grad()
    (w * w.sigmoid()).sum().backward()
    opt.step()
sd = opt.state_dict()
print(sd["param_groups"])
print(sd["state"])
u = w.detach().clone().requires_grad_()
opt2 = torch.optim.Adam([u], lr=0.05, amsgrad=True)
opt2.load_state_dict(sd)
for o, p in ((opt, w), (opt2, u)):
    o.zero_grad()
    (p * p.sigmoid()).sum().backward()
    o.step()
print(torch.equal(w, u), w)
