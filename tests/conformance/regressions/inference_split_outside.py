# split/chunk/unbind of an inference tensor outside inference_mode record nothing (leaves without grad)
with torch.inference_mode():
    x = torch.ones(4, requires_grad=True)
a, b = x.split(2)
c = x.chunk(2)[1]
d = x.view(2, 2).unbind()[0]
print(a.requires_grad, a.grad_fn, c.requires_grad, d.requires_grad, d.is_leaf)
