# subscripts: integers, slices, tuples of slices, Ellipsis, None, masks
m = torch.arange(12.0).reshape(3, 4).requires_grad_()
a = m[1]
b = m[:, 1:3]
c = m[..., 0]
d = m[None].shape
e = m[m > 8]
f = m[-1, ::2]
print(a, b, c, d, e, f, sep="\n")
loss = (a.sum() + b.sum() * 2 + c.sum() * 3 + e.sum() * 4 + f.sum() * 5)
