# Six tensors, six reasons their .grad stays None (`gradcli check` reports a mismatch: s and d use x outside autograd): see the "why no gradient" table of `gradcli run`,
# or ask for one: gradcli why samples/why_no_grad.py w
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.randn(2, requires_grad=True) * 0.1   # a non-leaf copy: the leaf that gets the gradient has no name
b = torch.zeros(2)                             # created without requires_grad=True
with torch.no_grad():
    s = x * 2                                  # computed under no_grad: no history
d = x.detach()                                 # cut from the graph by detach()
u = torch.ones(2, requires_grad=True)          # requires grad, but the loss never uses it
h = x * w                                      # a non-leaf without retain_grad()
loss = (h + b + s + d).sum()
loss.backward()
print(x.grad)
