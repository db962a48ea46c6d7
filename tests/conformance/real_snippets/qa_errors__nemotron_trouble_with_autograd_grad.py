# source: https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1 (copy of a forum question "Trouble with torch.autograd.grad": the first and second examples in order, with import torch)
import torch
x = torch.tensor(3., requires_grad=True)
y = x**2
dy_dx = torch.autograd.grad(outputs=(y,), inputs=(x,), create_graph=True)
print(f'dy_dx at x={x.data}:\t\t{dy_dx[0].data}')
d2y_dx2 = torch.autograd.grad(outputs=dy_dx, inputs=(x,), create_graph=True)
print(f'd2y_dx2 at x={x.data}:\t{d2y_dx2[0].data}')
d3y_dx3 = torch.autograd.grad(outputs=d2y_dx2, inputs=(x,))
print(f'd3y_dx3 at x={x.data}:\t{d3y_dx3[0].data}')

x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.tensor([[5., 6.], [7., 8.]], requires_grad=True)
z = x + y
u = 2*z

grads_1 = torch.autograd.grad(outputs=(u,), inputs=(z,), grad_outputs=(torch.ones(u.size()),), create_graph=True)
print(f'du_dz: {grads_1[0]}')
print(f'Requires grad attribute of du_dz: {grads_1[0].requires_grad}')

for i in range(len(grads_1)):
    grads_1[i].requires_grad_(requires_grad=True)

grads2 = torch.autograd.grad(outputs=grads_1, inputs=(z,), grad_outputs=(torch.ones(u.size()),))
print(f'du2_dz2: {grads_2[0]}')
