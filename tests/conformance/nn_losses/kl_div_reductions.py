# KLDivLoss: batchmean, sum, none, log_target, and the 'mean' reduction's warning
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
logp = nn.LogSoftmax(dim=1)(x)
q = nn.Softmax(dim=1)(torch.randn(3, 4))
a = nn.KLDivLoss(reduction="batchmean")(logp, q)
b = nn.KLDivLoss(reduction="sum", log_target=True)(logp, q.log())
c = nn.KLDivLoss(reduction="none")(logp, q)
d = nn.KLDivLoss()(logp, q)
print(a, b, c.grad_fn, d)
(a + b + d).backward()
