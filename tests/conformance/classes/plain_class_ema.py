# a plain class (class EMA:) with __init__, methods and attributes on self; instances print as PyTorch's
class EMA:
    """exponential moving average"""
    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = None
    def update(self, x):
        if self.value is None:
            self.value = x.detach().clone()
        else:
            self.value = self.decay * self.value + (1 - self.decay) * x.detach()
        return self.value
ema = EMA(0.5)
w = torch.tensor([1.0, 3.0], requires_grad=True)
for i in range(3):
    ema.update(w * (i + 1))
print(ema.value, ema.decay, isinstance(ema, EMA))
avg = ema.value
