# grad_fn and next_functions: walking the graph autograd recorded.
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
z = y.exp().sum()
print(z.grad_fn)                               # SumBackward0
print(z.grad_fn.next_functions)                # -> ExpBackward0
print(y.grad_fn.next_functions)                # -> AccumulateGrad for x and for w
print(y.grad_fn.next_functions[0][0].name())
print(x.grad_fn, x.is_leaf)                    # leaves have no grad_fn
