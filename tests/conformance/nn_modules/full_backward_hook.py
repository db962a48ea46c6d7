# register_full_backward_hook / pre-hook: grad_input, grad_output, replacing grad_input, BackwardHookFunctionBackward
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
def hook(module, grad_input, grad_output):
    print("hook", module is lin, grad_input, grad_output)
def hook2(module, grad_input, grad_output):
    return (grad_input[0] * 10,)
def pre(module, grad_output):
    print("pre", grad_output)
h = lin.register_full_backward_hook(hook)
x = torch.ones(1, 2, requires_grad=True)
y = lin(x)
print(y.grad_fn, y.grad_fn.name(), y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
h2 = lin.register_full_backward_hook(hook2)
hp = lin.register_full_backward_pre_hook(pre)
x.grad = None
lin(x).sum().backward()
print(x.grad, lin.weight.grad)
h.remove(); h2.remove(); hp.remove()
z = lin(torch.ones(2))
print(z.grad_fn)
k = lin.register_full_backward_hook(hook)
w = lin(torch.ones(1, 2))
print(w.grad_fn)
w.sum().backward()
