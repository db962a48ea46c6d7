# source: https://androidkt.com/fix-cant-call-numpy-on-tensor-that-requires-grad-use-tensor-detach-numpy-instead/ (the first example)
import torch
import torch.nn as nn

a = torch.tensor([1,2,3.], requires_grad=True)
print(a.numpy())
