# a NotImplemented node (floor_divide) has PyTorch's UINT64_MAX sequence number: it runs and fails as soon as
# it is ready, before an earlier-created MulBackward0 passes a gradient to the leaf (a.grad stays None)
a = torch.rand(3, requires_grad=True)
b = torch.rand(3, requires_grad=True)
y = torch.floor_divide(b, 0.3) + a * 2
print(y.grad_fn.next_functions)
y.sum().backward()
