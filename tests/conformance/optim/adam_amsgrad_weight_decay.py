# Adam with amsgrad (max_exp_avg_sq keeps the running maximum) and L2 weight decay added to the gradient
torch.manual_seed(4)
w = torch.randn(6, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True)
for i in range(8):
    opt.zero_grad()
    loss = (torch.cos(3 * w) + 0.1 * w ** 2).sum()
    loss.backward()
    opt.step()
print(w)
print(opt.state[w]["max_exp_avg_sq"])
print(opt.state[w]["exp_avg_sq"])
