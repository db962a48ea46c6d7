# nn.utils.clip_grad_norm_ (returns the total norm, scales the grads), clip_grad_value_, parameters_to_vector
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
torch.manual_seed(0)
model = nn.Linear(4, 2)
x = torch.randn(3, 4)
(model(x) ** 2).sum().backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total, model.weight.grad, model.bias.grad)
nn.utils.clip_grad_value_(model.parameters(), 0.05)
print(model.bias.grad)
vec = parameters_to_vector(model.parameters())
print(vec.shape, vec.grad_fn)
vector_to_parameters(torch.zeros(10), model.parameters())
print(model.weight, model.bias)
