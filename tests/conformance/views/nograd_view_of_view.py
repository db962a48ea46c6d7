# views of views made in no_grad / inference mode inherit their creation mode: PyTorch's errors name the new view
y = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = y[:2]
w = v.view(2)
try:
    w.mul_(2)
except RuntimeError as e:
    print(e)
with torch.inference_mode():
    z = torch.ones(3)
k = torch.ones(3, requires_grad=True).clone()
with torch.inference_mode():
    kv = k[:2]
kw = kv[0:1]
try:
    kw.mul_(2)
except RuntimeError as e:
    print(e)
y.mul_(2)
try:
    print(w.grad_fn)
except RuntimeError as e:
    print(e)
