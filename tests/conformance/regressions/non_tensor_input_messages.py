# A non-tensor given where a tensor is expected, caught and printed: the torch op's argument parser says
# "(position 1)"; torch.nn.functional code written in Python (F.tanh, F.sigmoid, F.softsign, F.tanhshrink,
# F.softmin) fails on the attribute or operator it uses, with Python's own error
import torch.nn as nn
import torch.nn.functional as F

calls = [torch.tanh, torch.sigmoid, torch.exp, torch.round, torch.sum, torch.mean, torch.abs, torch.relu,
         nn.Tanhshrink(), nn.Softsign(), nn.Softmin(0), nn.LogSigmoid(), F.tanh, F.sigmoid, F.softsign,
         F.tanhshrink, F.logsigmoid, F.softmin]
for f in calls:
    for a in [None, 3, [1.0], 2.5, True]:
        try:
            f(a)
        except TypeError as e:
            print("TypeError:", e)
        except AttributeError as e:
            print("AttributeError:", e)
y = F.softmin((1.0, 2.0), 0)
