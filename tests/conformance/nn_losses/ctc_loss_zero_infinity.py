# CTCLoss: an impossible alignment is an infinite loss (gradient nan-free with zero_infinity), empty targets
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 2, 4, requires_grad=True)
lp = x.log_softmax(2)
t = torch.tensor([[1, 1, 2], [2, 0, 0]])
inf_loss = F.ctc_loss(lp, t, [3, 3], [3, 0], reduction="none")
print(inf_loss)
z = nn.CTCLoss(zero_infinity=True, reduction="sum")(lp, t, [3, 3], [3, 0])
print(z)
z.backward()
g, = torch.autograd.grad(F.ctc_loss(x.log_softmax(2), t, [3, 2], [1, 1]), x, create_graph=True)
print(g.grad_fn.name() if g.grad_fn is not None else None)
try:
    F.ctc_loss(lp, t, [3, 3], [1, 1], blank=4)
except RuntimeError as e:
    print(e)
gg = torch.autograd.grad(g.sum(), x)
