# tangents through the elementwise family (PyTorch's derivatives.yaml forward formulas)
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.5, 2.0, 3.0])
v = torch.tensor([1.0, -2.0, 0.5, 0.25])
y = torch.tensor([2.0, 0.5, -1.0, 4.0])
w = torch.tensor([0.0, 1.0, 1.0, -1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    e = fwAD.make_dual(y, w)
    results = {
        "add": d + e, "sub": d - 2 * e, "mul": d * e, "div": d / e, "rdiv": 1 / d, "neg": -d,
        "pow2": d ** 2, "pow_t": d ** e, "rpow": 2 ** d, "exp": d.exp(), "log": d.log(), "sqrt": d.sqrt(),
        "rsqrt": d.rsqrt(), "tanh": torch.tanh(d), "sigmoid": torch.sigmoid(d), "relu": F.relu(d - 1.5),
        "abs": (d - 1.6).abs(), "clamp": d.clamp(1.0, 2.5), "square": d.square(), "reciprocal": d.reciprocal(),
        "where": torch.where(d > 1.0, d, e), "maximum": torch.maximum(d, e), "minimum": torch.minimum(d, e),
        "leaky": F.leaky_relu(d - 1.0, 0.1), "softplus": F.softplus(d), "gelu": F.gelu(d),
        "silu": F.silu(d), "elu": F.elu(d - 2.0), "log1p": d.log1p(), "expm1": d.expm1(),
        "addcmul": torch.addcmul(d, d, e, value=0.5), "lerp": torch.lerp(d, e, 0.25),
        "double": d.double(), "clone": d.clone(), "mixed": (d * e + d.exp()) / (1 + e ** 2),
    }
    for name, r in results.items():
        p, t = fwAD.unpack_dual(r)
        print(name, [round(a, 5) for a in p.tolist()], None if t is None else [round(a, 4) for a in t.tolist()])
    print(fwAD.unpack_dual(d > 1.0).tangent, fwAD.unpack_dual(d.long()).tangent)
