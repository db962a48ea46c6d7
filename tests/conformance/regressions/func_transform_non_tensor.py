# torch.func transforms given a non-tensor: jacfwd/hessian's AttributeError from p.numel(), the others' ValueError/RuntimeError (fuzz, issue 20)
import torch
from torch.func import vjp, jvp, grad, hessian, jacfwd, jacrev
def f(x):
    return x.sin().sum()
for name, call in [("hessian", lambda: hessian(f)(len)), ("jacfwd", lambda: jacfwd(f)(len)), ("jacrev", lambda: jacrev(f)(len)),
                   ("grad", lambda: grad(f)(len)), ("vjp", lambda: vjp(f, len)), ("jvp", lambda: jvp(f, (len,), (len,))),
                   ("jacfwd3", lambda: jacfwd(f)(3)), ("jacfwd_str", lambda: jacfwd(f)("ab"))]:
    try:
        print(name, call())
    except AttributeError as e:
        print(name, "AttributeError", e)
    except TypeError as e:
        print(name, "TypeError", e)
    except RuntimeError as e:
        print(name, "RuntimeError", e)
    except ValueError as e:
        print(name, "ValueError", e)
