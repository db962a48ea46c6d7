# source: https://scrapbox.io/takalab-lecture-ICP/テンソルの勾配 (Japanese lecture page: tensor_kobai1.py then tensor_kobai2.py, the integer tensor that cannot require grad, concatenated)
import torch as pt
x = pt.tensor(1., dtype=pt.float, requires_grad=True)
print(type(x))
print(x)
import torch as pt
x = pt.tensor(1, dtype=pt.int, requires_grad=True)
print(type(x))
print(x)
