# source: https://github.com/Mrytn/l-PyTorch-Tutorial-2nd (notebook section torch.Tensor.register_hook(hook), 例 1)
import torch
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)  # retain_grad()
b = torch.add(w, 1)
y = torch.mul(a, b)
a_grad = list()
# a,b因为不是叶子结点，梯度不会保存，除非retain_grad=True
# a.retain_grad()
# b.retain_grad()
# y不是叶子结点，也不会保存，如果retain_grad=True,则梯度永远是1
# y.retain_grad()


def grad_hook(grad):
    a_grad.append(grad)


handle = a.register_hook(grad_hook)
y.backward()
# 查看梯度
print("gradient:", w.grad, x.grad, a.grad, b.grad, y.grad)
print("a_grad[0]: ", a_grad[0])
handle.remove()
