# tangents through reductions and normalisations
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, -1.0, 0.5]])
v = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    outs = {
        "sum": d.sum(), "sum0": d.sum(0), "sum1k": d.sum(1, keepdim=True), "mean": d.mean(),
        "mean1": d.mean(dim=1), "prod": d.prod(), "prod1": d.prod(1), "max": d.max(), "max1": d.max(1).values,
        "min0": d.min(dim=0)[0], "amax": d.amax(1), "norm": d.norm(), "norm1": d.norm(dim=1), "var": d.var(),
        "std1": d.std(1), "logsumexp": d.logsumexp(1), "softmax": F.softmax(d, dim=1),
        "log_softmax": F.log_softmax(d, dim=0), "cumsum": d.cumsum(1), "cumprod": d.cumprod(1),
        "mse": F.mse_loss(d, torch.zeros(2, 3)), "ce": F.cross_entropy(d, torch.tensor([2, 0])),
    }
    for name, r in outs.items():
        t = fwAD.unpack_dual(r).tangent
        print(name, [round(a, 4) for a in r.flatten().tolist()], [round(a, 4) for a in t.flatten().tolist()])
    print(d.sum(), d.mean(0))
