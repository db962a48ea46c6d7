# source: https://docs.pytorch.org/docs/stable/generated/torch.nn.Linear.html (the Identity, Linear and Bilinear examples in pytorch/pytorch torch/nn/modules/linear.py; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

m = nn.Identity(54, unused_argument1=0.1, unused_argument2=False)
input = torch.randn(128, 20)
output = m(input)
print(output.size())

m = nn.Linear(20, 30)
input = torch.randn(128, 20)
output = m(input)
print(output.size())

m = nn.Bilinear(20, 30, 40)
input1 = torch.randn(128, 20)
input2 = torch.randn(128, 30)
output = m(input1, input2)
print(output.size())
