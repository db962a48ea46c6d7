# in-place on a view of a leaf view that requires grad: leaf_inplace, as PyTorch checks the base is a leaf (generator finding)
x1 = torch.arange(-1.0, 1.125, 0.25).reshape((3, 3)).requires_grad_()
t2 = x1.reshape(9, 1)
t2.add_(3.0, alpha=2)
