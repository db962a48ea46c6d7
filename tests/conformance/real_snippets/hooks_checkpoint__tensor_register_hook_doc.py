# source: https://docs.pytorch.org/docs/stable/generated/torch.Tensor.register_hook.html (docstring in pytorch/pytorch torch/_tensor.py; REPL -> script, displayed value -> print)
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

h.remove()  # removes the hook
