# MSELoss / L1Loss with reduction mean, sum and none; print(loss_fn)
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(3, 2, requires_grad=True)
t = torch.randn(3, 2)
for r in ["mean", "sum", "none"]:
    print(nn.MSELoss(reduction=r)(x, t), nn.L1Loss(reduction=r)(x, t))
print(nn.MSELoss(), nn.L1Loss(reduction="sum"))
loss = nn.MSELoss()(x, t) + nn.L1Loss(reduction="sum")(x, t)
loss.backward()
