# index/condition tensors and gather's input are saved as PyTorch saves them: an in-place change fails the
# backward; hypot saves each operand only for its own derivative (generator finding)
a = (torch.rand(3, 3) + 0.5).requires_grad_()
b = torch.rand(3, 3) + 0.5
h = torch.hypot(a, b)
b.add_(1)
h.sum().backward()
m = b > 1.2
z = a[m]
c = torch.tensor([True, False, True])
w = torch.where(c, a[0], b[0])
c.fill_(False)
w.sum().backward()
