# a def decorated with @torch.no_grad() runs without recording a graph
@torch.no_grad()
def scaled(t):
    return t * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = scaled(x)
b = x * 2
print(a.requires_grad, b.requires_grad, torch.is_grad_enabled())
