# ops on inference tensors outside inference_mode: recorded only with a normal tensor or a number beside them;
# saving one for backward is refused (generator finding)
with torch.inference_mode():
    a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
c = a * 2
d = a + b
e = a.exp()
f = a.view(2)
g = torch.amin(a)
print(c.requires_grad, d.grad_fn, e.requires_grad, f.requires_grad, f.is_inference(), g.requires_grad)
(c.sum() + d.sum()).backward()
h = a * b
