# a dual tensor whose primal requires grad: backward still reaches the primal, and no_grad keeps the tangents
import torch.autograd.forward_ad as fwAD

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(w, torch.tensor([1.0, 0.0, 0.0]))
    print(d.requires_grad, d.is_leaf, d.grad_fn)
    out = (d * d).sum()
    print(out)
    print(fwAD.unpack_dual(out).tangent)
    out.backward()
    print(w.grad)
    y = (d.exp() * 2).sum()
    g, = torch.autograd.grad(y, w)
    print(fwAD.unpack_dual(g).primal, fwAD.unpack_dual(y).tangent)  # (g's own tangent: forward-over-reverse, not modelled)
    with torch.no_grad():
        print(fwAD.unpack_dual(d.sin() * 0 + d).tangent)
    print(fwAD.unpack_dual(d.detach()).tangent, fwAD.unpack_dual(d.data).tangent)
