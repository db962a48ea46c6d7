# errors torch raises are caught by PyTorch's class: IndexError, TypeError, RuntimeError; a tuple of classes
x = torch.ones(2, 3, requires_grad=True)
try:
    x.sum(dim=5)
except IndexError as e:
    print("IndexError", e)
def f(a):
    return a * 2
try:
    f(x, 2)
except TypeError as e:
    print("TypeError", e)
try:
    x @ x
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.add_(1)
except (ValueError, RuntimeError) as e:
    print("tuple", e)
try:
    (x * 2).backward()
except Exception as e:
    print("Exception", e)
try:
    x.numpy()
except RuntimeError as e:
    print(e)
print(x.grad)
