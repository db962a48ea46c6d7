# F.pad(mode='constant') of an inference tensor that requires grad, outside inference mode: autograd is not dispatched to, so ATen's composite records its inner copy_ (CopySlices into the narrowed output, CopyBackwards into a whole one; a narrowed inference input has no grad), as PyTorch 2.13 (generator finding, seed 2026120283: gradcli's result did not require grad)
import torch.nn.functional as F
with torch.inference_mode():
    x = torch.arange(-1.0, 1.0, 0.25).reshape(2, 4).requires_grad_()
    v = torch.ones(3, 2, 2).requires_grad_()
for p in [(2, 1), (0, 0), (-1, 1), (-1, -1), (1, 0, 0, 2), (1, -1, 0, 1), (0, 0, 1, 0), (0, 0, -1, 0)]:
    t = F.pad(x, p, value=0.5)
    print(p, t.requires_grad, t.grad_fn, t.is_inference(), t.tolist())
t = F.pad(v, (1, 1, 1, 1, 1, 0))
print(t.requires_grad, t.grad_fn, t.shape)
t.sum().backward()
print(v.grad)
u = torch.constant_pad_nd(x, (1, 1))
print(u.grad_fn)
with torch.no_grad():
    print(F.pad(x, (1, 1)).requires_grad)
with torch.inference_mode():
    w = F.pad(x, (1, 1))
    print(w.requires_grad, w.is_inference())
y = torch.ones(2, 2, requires_grad=True)
print(F.pad(y, (1, 1)).grad_fn)
