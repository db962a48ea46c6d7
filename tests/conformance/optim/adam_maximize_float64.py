# Adam on a float64 parameter with maximize=True: the state follows the parameter's dtype, the step stays float32
torch.manual_seed(5)
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1, maximize=True)
for i in range(6):
    opt.zero_grad()
    (-(w - 0.5) ** 2).sum().backward()
    opt.step()
print(w)
print(opt.state[w]["exp_avg"].dtype, opt.state[w]["step"].dtype)
