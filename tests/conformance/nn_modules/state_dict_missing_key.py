# load_state_dict with a missing key fails with PyTorch's RuntimeError at the call line
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
sd = {"weight": torch.ones(2, 2)}
print(m.load_state_dict(sd, strict=False))
print(m.weight)
m.load_state_dict(sd)
