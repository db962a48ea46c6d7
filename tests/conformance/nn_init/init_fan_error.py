# xavier on a 1-d tensor: PyTorch's ValueError (kind runtime) at the call line
import torch.nn as nn
b = torch.empty(3)
nn.init.zeros_(b)
print(b)
nn.init.xavier_uniform_(b)
