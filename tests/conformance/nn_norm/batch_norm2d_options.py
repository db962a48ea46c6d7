# nn.BatchNorm2d in a small CNN; momentum=None (cumulative average), affine=False, track_running_stats=False
# (batch statistics also in eval), a 3-d input to BatchNorm1d, F.batch_norm in eval
import torch.nn as nn
torch.manual_seed(5)
net = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2))
print(net)
x = torch.randn(3, 2, 4, 4)
out = net(x)
print(out.shape, net[1].running_mean, net[1].running_var)
cum = nn.BatchNorm2d(2, momentum=None, affine=False)
for i in range(3):
    cum(torch.randn(2, 2, 3, 3) + i)
print(cum, cum.running_mean, cum.running_var, cum.num_batches_tracked)
free = nn.BatchNorm2d(2, track_running_stats=False)
free.eval()
f = free(torch.randn(2, 2, 2, 2))
print(free.running_mean, f.shape, f.abs().sum() > 1)
seq = nn.BatchNorm1d(3, bias=False)
s = seq(torch.randn(2, 3, 5))
rm, rv = torch.zeros(3), torch.ones(3) * 2
g = F.batch_norm(torch.randn(4, 3), rm, rv, torch.ones(3) * 3, None)
print(g)
loss = out.sum() + s.pow(2).sum()
