# RMSprop centered (grad_avg by lerp_, avg = sqrt(square_avg - grad_avg^2)) with momentum and weight decay
torch.manual_seed(8)
w = torch.randn(6, requires_grad=True)
opt = torch.optim.RMSprop([w], lr=0.01, alpha=0.9, eps=1e-6, weight_decay=0.05, momentum=0.9, centered=True)
for i in range(7):
    opt.zero_grad()
    (w.exp() - 2 * w).sum().backward()
    opt.step()
print(w)
st = opt.state[w]
print(list(st.keys()))
print(st["grad_avg"])
print(st["momentum_buffer"])
