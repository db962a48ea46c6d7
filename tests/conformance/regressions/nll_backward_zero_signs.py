# nll_loss/cross_entropy backward: +0.0 off the targets and the signs of zeros at them, for every sign of the
# incoming gradient (a reduced loss needs no mask: adding +0.0 fixes the -0.0 products)
x = torch.randn(5, 4, requires_grad=True)
t = torch.tensor([0, 3, 1, 1, 2])
w = torch.tensor([1.0, 0.0, 2.0, 0.5])
for red in ['mean', 'sum']:
    for gv in [1.0, -1.0, 0.0, -0.0, 2.5]:
        x.grad = None
        F.nll_loss(x, t, weight=w, reduction=red).backward(torch.tensor(gv))
        print(red, gv, x.grad)
x.grad = None
F.nll_loss(x, t, reduction='none').backward(torch.tensor([1.0, -1.0, -0.0, 0.0, 3.0]))
print(x.grad)
x.grad = None
F.cross_entropy(x, t, weight=w, ignore_index=1).backward(torch.tensor(-2.0))
print(x.grad)
x.grad = None
F.nll_loss(x, t, weight=w).backward(torch.tensor(float('nan')))
print(x.grad)
y = torch.randn(3, 4, 2, requires_grad=True)
F.nll_loss(y, torch.tensor([[0, 1], [3, 3], [2, 0]]), weight=w, reduction='sum').backward(torch.tensor(-0.0))
print(y.grad)
