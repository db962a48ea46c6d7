# PyTorch warns once per run when float() converts a tensor that requires grad (also torch.tensor([...]) of such
# tensors); int(), .item(), .tolist() and f-strings do not warn
s = torch.tensor(2.0, requires_grad=True)
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(int(s), s.item(), x.tolist(), f"{s:.2f}")
def loss_value(t):
    return float(t)
print(loss_value(s * 3))
print(float(s))
print(torch.tensor([s, s * 2]))
c = torch.tensor(x)
print(c)
