# x[mask] = v (index_put_) saves the mask: changing it in place after the write fails the backward
x = torch.tensor([0.37, -0.31, 0.15, -1.06], requires_grad=True)
h = x * 1
m = h > 0
h[m] = 0.0
m.logical_not_()
h.sum().backward()
