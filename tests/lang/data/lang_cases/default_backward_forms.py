# the default backward target: last tensor of a top-level assignment (tuple, augmented, inside if/with), not in a def
x = torch.tensor([1.0, 2.0], requires_grad=True)
def f(t):
    inner = (t * 100).sum()
    return inner
if True:
    a, b = (x * 2).sum(), (x * 3).sum()
with torch.enable_grad():
    b *= 2
print(f(x))
