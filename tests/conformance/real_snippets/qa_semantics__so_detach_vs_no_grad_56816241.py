# source: https://stackoverflow.com/questions/56816241/difference-between-detach-and-with-torch-nograd-in-pytorch (the answer's examples in order; "from torchviz import make_dot" and the make_dot(r) plotting lines dropped, import torch added)
import torch
x=torch.ones(2, requires_grad=True)
y=2*x
z=3+x
r=(y+z).sum()

x=torch.ones(2, requires_grad=True)
y=2*x
z=3+x.detach()
r=(y+z).sum()

x=torch.ones(2, requires_grad=True)
y=2*x
z=3+x.data
r=(y+z).sum()

print(x)
print(x.detach())

x=torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
