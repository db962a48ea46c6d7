# the PyTorch side of workloads/check_50.py: torch.autograd.gradcheck of the same function
x = torch.linspace(-1.0, 1.0, 50, dtype=torch.float64, requires_grad=True)


def f(x):
    y = torch.sin(x) * torch.exp(x * 0.5) + x * x
    return (y * torch.tanh(y)).sum()


assert torch.autograd.gradcheck(f, (x,), eps=1e-6, atol=1e-5, rtol=1e-3)
