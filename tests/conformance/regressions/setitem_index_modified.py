# x[index] = v saves the index tensor: an in-place change of it after the write fails the backward
x = torch.tensor([0.37, -0.31, 0.15, -1.06], requires_grad=True)
h = x * 1
i = torch.tensor([0, 2])
h[i] = torch.tensor([1., 2.], requires_grad=True)
i.add_(0)
h.sum().backward()
