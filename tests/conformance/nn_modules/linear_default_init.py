# nn.Linear's default initialisation draws PyTorch's random stream: kaiming_uniform_(a=sqrt(5)), then the bias bound
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
print(model.weight)
print(model.bias)
print(model)
x = torch.randn(4, 3)
out = model(x)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(model.weight.grad, model.bias.grad)
