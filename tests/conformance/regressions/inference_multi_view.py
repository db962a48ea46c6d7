# split/chunk/unbind of a normal tensor inside inference_mode give normal views (requires_grad from the base), as other views do (generator finding)
x1 = torch.zeros((4,), requires_grad=True)
with torch.inference_mode():
    a = x1[0:2]
    b = x1.view(2, 2)
    c = torch.split(x1, 1, -1)[0]
    d = x1.unbind(0)[1]
    e = x1.chunk(2)[0]
    f = x1.t()
    g = x1 * 2
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, e.requires_grad, f.requires_grad, g.requires_grad)
print(a.is_inference(), c.is_inference(), g.is_inference())
