# torch.autograd.forward_ad as its documentation shows it: a dual input, the function, unpack_dual;
# the tangents are gone once the level is left
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([1., 2., 3.])
tangent = torch.tensor([1., 0., 0.])


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    dual_output = fn(dual_input, 1.0)
    print(dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
    p, t = fwAD.unpack_dual(dual_output)
    print(p, t)
    print(fwAD.unpack_dual(primal))
    print(fwAD.unpack_dual(dual_output).primal)
    with torch.no_grad():
        print(dual_input * 2)
print(jvp)
print(fwAD.unpack_dual(dual_output).tangent)
print(dual_output)
print(fwAD.unpack_dual(dual_output))
