# source: https://github.com/Mrytn/l-PyTorch-Tutorial-2nd (notebook section torch.Tensor.register_hook(hook), 例 2, with the "import torch" of 例 1)
import torch
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
a_grad = list()


def grad_hook(grad):
    grad *= 2

    # return grad*3
handle = w.register_hook(grad_hook)
y.backward()
# 查看梯度
print("w.grad: ", w.grad)
handle.remove()
