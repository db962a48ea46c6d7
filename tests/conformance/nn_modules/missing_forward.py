# calling a module whose class defines no forward: NotImplementedError (kind runtime) at the call
import torch.nn as nn
class Empty(nn.Module):
    pass
m = Empty()
print(m)
y = m(torch.ones(2))
