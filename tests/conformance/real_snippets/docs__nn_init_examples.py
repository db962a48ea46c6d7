# source: https://docs.pytorch.org/docs/stable/nn.init.html (the examples of uniform_, normal_, constant_, ones_, zeros_, eye_, xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_ and calculate_gain in pytorch/pytorch torch/nn/init.py, one after the other; REPL -> script with the imports the page assumes)
import torch
import torch.nn as nn

gain = nn.init.calculate_gain(
    "leaky_relu", 0.2
)  # leaky_relu with negative_slope=0.2
print(gain)
w = torch.empty(3, 5)
print(nn.init.uniform_(w))
w = torch.empty(3, 5)
print(nn.init.normal_(w))
w = torch.empty(3, 5)
print(nn.init.constant_(w, 0.3))
w = torch.empty(3, 5)
print(nn.init.ones_(w))
w = torch.empty(3, 5)
print(nn.init.zeros_(w))
w = torch.empty(3, 5)
print(nn.init.eye_(w))
w = torch.empty(3, 5)
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))
w = torch.empty(3, 5)
print(nn.init.xavier_normal_(w))
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))
w = torch.empty(3, 5)
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
