# Four ways to stop tracking, and what each one changes.
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    a = w * 2                  # computed without a graph: no grad_fn, requires_grad False
with torch.set_grad_enabled(False):
    b = w * 2                  # the same switch, as a flag you can pass a variable to
c = w.detach() * 2             # detach(): a new leaf sharing w's data, cut from the graph
v = torch.tensor([1.0, 2.0], requires_grad=True)
v.requires_grad_(False)        # turns tracking off on the leaf itself
d = v * 2
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad)
print(a.grad_fn, b.grad_fn, c.grad_fn, d.grad_fn)
e = (w * 2).sum()              # outside the switches tracking is back on
print(e.requires_grad, e.grad_fn)
