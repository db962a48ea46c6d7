# kaiming with mode='fan_out' and nonlinearity='relu', xavier with a gain, calculate_gain values
import torch.nn as nn
torch.manual_seed(0)
w = nn.Parameter(torch.empty(2, 5))
nn.init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")
print(w)
nn.init.kaiming_normal_(w, a=0.2, nonlinearity="leaky_relu")
print(w)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("tanh"))
print(w, w.requires_grad, w.is_leaf)
s = w.sum()
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("sigmoid"))
