# source: https://docs.pytorch.org/docs/stable/generated/torch.set_grad_enabled.html (docstring in pytorch/pytorch torch/autograd/grad_mode.py; REPL -> script, displayed values -> print)
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
