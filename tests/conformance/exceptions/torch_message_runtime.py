# str(e) of runtime errors is PyTorch's, and each is caught by PyTorch's class: multi-output views changed in
# place, a view made in no_grad mode, conversions, hooks, inference tensors, .grad assignment
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
def report(f):
    try:
        f()
    except ValueError as e:
        print("ValueError:", e)
    except AttributeError as e:
        print("AttributeError:", e)
    except RuntimeError as e:
        print("RuntimeError:", e)
def split_inplace():
    a, b = (x * 2).split(2)
    a.add_(1)
report(split_inplace)
def unbind_inplace():
    parts = (x * 2).unbind()
    parts[3].mul_(2)
report(unbind_inplace)
def chunk_inplace():
    parts = (x * 2).chunk(2)
    parts[1].zero_()
report(chunk_inplace)
def no_grad_view():
    y = x * 2
    with torch.no_grad():
        v = y[:2]
    v.mul_(2)
report(no_grad_view)
def no_grad_view_read():
    y = x * 2
    with torch.no_grad():
        v = y.view(2, 2)
    y.add_(1)
    print(v.grad_fn)
report(no_grad_view_read)
report(lambda: float(x))
report(lambda: int(torch.ones(2, 2)))
report(lambda: torch.ones(2).register_hook(lambda g: g))
def inference_save():
    with torch.inference_mode():
        t = torch.ones(2)
    (t * x[:2]).sum().backward()
report(inference_save)
def inference_inplace():
    with torch.inference_mode():
        t = torch.ones(2)
    t.add_(1)
report(inference_inplace)
def grad_assign():
    x.grad = torch.ones(3)
report(grad_assign)
def grad_assign_dtype():
    x.grad = torch.ones(4, dtype=torch.float64)
report(grad_assign_dtype)
report(lambda: x[::-1])
report(lambda: torch.tensor([[1.0], [1.0, 2.0]]))
report(lambda: torch.ones(2, 3).view(-1, -1))
report(lambda: x.detach().numpy().foo)
try:
    x.foo
except AttributeError as e:
    print("AttributeError:", e)
try:
    torch.nosuch
except AttributeError as e:
    print("AttributeError:", e)
