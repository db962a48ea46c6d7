# tangents through the matmul family: mm, mv, bmm, matmul broadcasting, dot, outer, F.linear
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
A = torch.randn(3, 4)
At = torch.randn(3, 4)
B = torch.randn(4, 2)
Bt = torch.randn(4, 2)
vec = torch.randn(4)
vt = torch.randn(4)
with fwAD.dual_level():
    a = fwAD.make_dual(A, At)
    b = fwAD.make_dual(B, Bt)
    u = fwAD.make_dual(vec, vt)
    outs = {
        "mm": a @ b, "mm_one_dual": A @ b, "mv": a @ u, "dot": u @ u, "outer": torch.outer(u, u),
        "bmm": torch.bmm(a.unsqueeze(0).expand(2, 3, 4), b.unsqueeze(0).expand(2, 4, 2)),
        "matmul_bcast": torch.matmul(a.reshape(1, 3, 4), b), "linear": F.linear(a, b.t(), u[:2]),
        "vecmat": u @ b,
    }
    for name, r in outs.items():
        t = fwAD.unpack_dual(r).tangent
        print(name, list(r.shape), [round(x, 4) for x in t.flatten().tolist()])
    print(a @ b)
