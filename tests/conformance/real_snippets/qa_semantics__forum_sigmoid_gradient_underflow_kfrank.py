# source: https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1 (copy of the forum post "Imperfect Gradient for torch.sigmoid()", KFrank, Jan 2022: the script)
import torch
print(torch.__version__)

_ = torch.manual_seed(2022)

def sigmoidB(x):
    return 1.0 / (1.0 + torch.exp(-x))

t = torch.arange(-80, 85, 10).float()
t.requires_grad = True

sigA = torch.sigmoid(t)
sigA.sum().backward()
grdA = t.grad

t.grad = None
sigB = sigmoidB(t)
sigB.sum().backward()
grdB = t.grad

print('t:', t)
print('sigA:', sigA)
print('sigB:', sigB)
print('grdA:', grdA)
print('grdB:', grdB)
print('relative asymmetry in gradient:')
print('(grdA - grdA.flip(0)) / torch.max(grdA, grdA.flip(0)):', (grdA - grdA.flip(0)) / torch.max(grdA, grdA.flip(0)))
print('(grdB - grdB.flip(0)) / torch.max(grdB, grdB.flip(0)):', (grdB - grdB.flip(0)) / torch.max(grdB, grdB.flip(0)))
