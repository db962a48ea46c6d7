# Adam's defaults: exp_avg by lerp_, exp_avg_sq by mul_/addcmul_, a float32 0-d step counter in the state
torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)
target = torch.randn(3, 3)
opt = torch.optim.Adam([w])
for i in range(5):
    opt.zero_grad()
    loss = ((w @ w - target) ** 2).mean()
    loss.backward()
    opt.step()
print(w)
st = opt.state[w]
print(list(st.keys()))
print(st["step"], st["step"].dtype)
print(st["exp_avg"])
print(st["exp_avg_sq"])
