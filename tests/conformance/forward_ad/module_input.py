# a dual input through nn layers: the JVP of a small network
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
x = torch.randn(5, 3)
v = torch.randn(5, 3)
with fwAD.dual_level():
    out = net(fwAD.make_dual(x, v))
    jvp = fwAD.unpack_dual(out).tangent
    print(out.shape, [round(a, 4) for a in jvp.flatten().tolist()])
    loss = F.mse_loss(out, torch.zeros(5, 2))
    print(round(fwAD.unpack_dual(loss).tangent.item(), 4))
