# a small CNN: Conv2d, ReLU, MaxPool2d, Flatten, Linear; print(model), grad_fn chain, gradients
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 6, 3),
    nn.ReLU(),
    nn.Flatten(),
    nn.Linear(6 * 2 * 2, 3),
)
print(model)
x = torch.rand(2, 1, 8, 8)
out = model(x)
print(out)
print(out.grad_fn, out.grad_fn.next_functions[1][0].next_functions)
loss = out.pow(2).mean()
loss.backward()
print(model[0].weight.grad[0])
print(model[3].bias.grad)
