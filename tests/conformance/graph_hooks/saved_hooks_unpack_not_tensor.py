# an unpack hook that returns no Tensor is a TypeError at backward
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: 3):
    y = a.sin()
y.sum().backward()
