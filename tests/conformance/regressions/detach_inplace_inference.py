# detach_() is a no-op inside inference_mode and on an inference tensor (PyTorch's detach_ is an autograd kernel)
with torch.inference_mode():
    x = torch.randn((4, 2), requires_grad=True)
x.detach_()
z = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    z.detach_()
    y = torch.ones(3, requires_grad=True)
    y.detach_()
v = (z * 1)[0:1]
with torch.inference_mode():
    v.detach_()
print(x.requires_grad, z.requires_grad, y.requires_grad, v.grad_fn)
