# source: https://github.com/pytorch/pytorch/issues/32304 (issue's To Reproduce: second_deriv and its two >>> calls as a script, results printed; `import torch` added)
import torch
def second_deriv(y, x):
    # first derivative of scalar y = f(x) wrt scalar x
    first = torch.autograd.grad(y, x, create_graph=True)[0]
    # second derivative of y wrt x
    second = torch.autograd.grad(first, x, create_graph=True)[0]
    return second
x = torch.tensor(1.0, requires_grad=True)
print(second_deriv(x**2, x))
print(second_deriv(x*2, x))
