# gradcheck(check_forward_ad=True, check_backward_ad=False) checks a custom Function's jvp against the numerical Jacobian: forward runs once per input element, a wrong jvp is "Jacobian computed with forward mode mismatch" (real snippet: the forward-AD tutorial's Fn)
import torch

class Good(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("forward")
        ctx.save_for_forward(x)
        return x * x

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x * x

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x * t

x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Good.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False))
try:
    torch.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                             check_undefined_grad=False, check_batched_grad=False)
except RuntimeError as e:
    print(e)
print(torch.autograd.gradcheck(Bad.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False, raise_exception=False))
