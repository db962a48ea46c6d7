# `gradcli check` reports a mismatch here: w.grad sums every backward (no zero_grad()), as PyTorch's does.
# The forums' quick fixes `gradcli lint samples/lint_forum_fixes.py` warns about: each one makes an error
# or a warning go away, and each one leaves the gradients wrong.
import torch.nn as nn
torch.manual_seed(0)
w = torch.randn(2, requires_grad=True)
x = torch.randn(2)
with torch.no_grad():
    y = (w * x).sum()
y.requires_grad = True       # silences no_grad_fn: y is a new leaf
y.backward()
print(w.grad)                # None: the backward stopped at y
z = (w * x).sum()
z.backward(retain_graph=True)  # nothing uses this graph again
x.require_grad = True        # a typo: x still does not require grad
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    opt.step()               # no opt.zero_grad(): w.grad keeps adding up
model = nn.Linear(2, 1)
model.eval()
out = model(x)               # eval() is not no_grad: out has a grad_fn
print(x.requires_grad, out.requires_grad)
