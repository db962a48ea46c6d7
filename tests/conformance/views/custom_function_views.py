# gradcli: --repeat 0
# a custom Function's view outputs (of a clone, the input itself, a view of the input): IN_CUSTOM_FUNCTION, no in-place change of them nor read of them after their base changed
torch.manual_seed(0)
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp, mode):
        if mode == 0:
            return inp.clone()[:3]
        if mode == 1:
            v = inp.clone()[:3]; v += 2; return v
        if mode == 2:
            return inp
        if mode == 3:
            return inp[:3]
        if mode == 4:
            return inp.view(-1)
    @staticmethod
    def backward(ctx, grad):
        return grad, None
def e(f):
    try:
        r = f()
        print("ok", r)
    except RuntimeError as ex:
        print("RuntimeError", ex)
for mode in range(5):
    base = torch.rand(10, requires_grad=True)
    b2 = base * 1
    foo = MyFn.apply(b2, mode)
    print(mode, foo.grad_fn)
    e(lambda: foo.mul_(2))
    print(foo.grad_fn)
    foo2 = MyFn.apply(b2, mode)
    e(lambda: b2.add_(1))
    e(lambda: foo2.grad_fn)
    foo3 = MyFn.apply(base, mode)
    e(lambda: foo3.mul_(2))
with torch.no_grad():
    x = torch.ones(3, requires_grad=True)
    v = x[:2]
e(lambda: v.mul_(2))
print(v.requires_grad, v.grad_fn)
y = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    w = y[:2]
e(lambda: w.mul_(2))
e(lambda: y.mul_(2))
e(lambda: w.grad_fn)
print(w.requires_grad)
with torch.inference_mode():
    z = torch.ones(3)
    zv = z[:2]
e(lambda: zv.mul_(2))
k = torch.ones(3, requires_grad=True).clone()
with torch.inference_mode():
    kv = k[:2]
e(lambda: kv.mul_(2))
e(lambda: k.mul_(2))
e(lambda: kv.grad_fn)
