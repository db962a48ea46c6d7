# source: https://discuss.pytorch.org/t/how-to-define-a-leaf-tensor-in-pytorch-0-4-1/28461 (the answer's example; REPL -> script, displayed values -> print)
import torch
x = torch.tensor([1.0], requires_grad=True)
y = x * 2 # is_leaf = False
print(y)

x = torch.tensor([1.0])
y = x * 2
print(y)
y.requires_grad = True # is_leaf = True
print(y)
