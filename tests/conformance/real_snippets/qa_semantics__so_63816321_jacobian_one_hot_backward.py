# source: https://stackoverflow.com/questions/63816321/why-pytorch-autograd-need-another-vector-to-backward-instead-of-computing-jaco (the answer's code: the Jacobian column by column with one-hot backward vectors; indentation lost in the page text restored, the import it assumes added)
import torch

x = torch.randn(3, requires_grad=True)
y = x * 2
J = torch.zeros(x.shape[0],x.shape[0])
for i in range(x.shape[0]):
    v = torch.tensor([1 if j==i else 0 for j in range(x.shape[0])], dtype=torch.float)
    y.backward(v, retain_graph=True)
    J[:,i] = x.grad
    x.grad.zero_()
print(J)
