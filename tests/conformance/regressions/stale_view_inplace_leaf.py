# a view made before its base got a history counts as a leaf in PyTorch's in-place check (C++ is_leaf reads the grad_fn field) until its grad_fn is read
b = torch.zeros(4)
v = b[1:3]
b.copy_(torch.ones(4, requires_grad=True))
v.mul_(2)
