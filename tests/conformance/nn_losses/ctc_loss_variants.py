# CTCLoss: concatenated and padded targets, repeated labels, blank index, reductions, an unbatched input
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
T, N, C = 8, 3, 5
x = torch.randn(T, N, C, requires_grad=True)
lp = x.log_softmax(2)
targets = torch.tensor([1, 1, 2, 3, 4, 4, 2, 1])
il = torch.tensor([8, 7, 6])
tl = torch.tensor([3, 2, 3])
a = nn.CTCLoss()(lp, targets, il, tl)
b = F.ctc_loss(lp, torch.tensor([[1, 1, 2], [3, 4, 0], [4, 2, 1]]), [8, 7, 6], [3, 2, 3], reduction="sum")
c = F.ctc_loss(lp, targets.int(), il, tl, blank=4, reduction="none")
u = torch.randn(6, 4, requires_grad=True)
d = F.ctc_loss(u.log_softmax(1), torch.tensor([1, 2]), torch.tensor(6), torch.tensor(2), reduction="none")
print(a, b, c, d)
(a + b + c.sum() + d).backward()
