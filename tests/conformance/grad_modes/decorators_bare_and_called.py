# gradcli: --repeat 0
# grad-mode decorators with and without parentheses (no_grad, enable_grad, inference_mode, set_grad_enabled(False)); inference_mode(False) is normal mode
x = torch.ones(2, requires_grad=True)
@torch.set_grad_enabled(False)
def f(a):
    return a * 2
print(torch.is_grad_enabled(), f(x).requires_grad, torch.is_grad_enabled())
@torch.inference_mode
def g(a):
    return a * 2
r = g(x)
print(r.requires_grad, r.is_inference())
@torch.enable_grad
def h(a):
    return a * 2
with torch.no_grad():
    print(h(x).requires_grad)
@torch.no_grad
def k(a):
    return a * 2
print(k(x).requires_grad)
with torch.no_grad():
    with torch.inference_mode(False):
        y = x * 2
        print(y.requires_grad, torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    with torch.inference_mode(False):
        y = x * 2
        print(y.requires_grad, y.is_inference(), torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    print(torch.is_grad_enabled())
@torch.inference_mode(False)
def m(a):
    return a * 2
with torch.inference_mode():
    print(m(x).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
@torch.no_grad()
def n(a):
    return a * 2
print(n(x).requires_grad)
