# isinstance with torch.Tensor, nn.Module, nn.Linear, nn.Parameter, torch.FloatTensor
import torch.nn as nn
m = nn.Linear(2, 2)
t = torch.ones(2)
print(isinstance(t, torch.Tensor), isinstance(m, nn.Module), isinstance(m, nn.Linear), isinstance(m, nn.ReLU))
print(isinstance(m.weight, nn.Parameter), isinstance(m.weight, torch.Tensor), isinstance(t, nn.Parameter))
print(isinstance(t, torch.FloatTensor), isinstance(t.long(), torch.FloatTensor), isinstance(t.long(), torch.LongTensor))
print(isinstance(m, (nn.ReLU, nn.Linear)), isinstance(3, (int, float)))
