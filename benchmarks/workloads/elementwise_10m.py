# 10M-element elementwise chain (forward only, no autograd): memory bandwidth and temporaries
x = torch.arange(10_000_000, dtype=torch.float32) * 6e-7 - 3.0
y = x * 2.0 + 1.0
y = y.sin() * y.cos()
y = torch.exp(-(y * y))
y = (y + x) / 3.0
y = torch.tanh(y).abs().sqrt()
y = torch.where(y > 0.5, y, 0.5 - y)
s = y.sum()
