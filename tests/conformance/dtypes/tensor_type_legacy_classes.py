# Tensor.type: the legacy type name, conversion to a legacy tensor class, its name or a dtype; bad arguments
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
print(x.type(), torch.zeros(1, dtype=torch.int16).type(), torch.zeros(1, dtype=torch.uint8).type())
y = x.type(torch.LongTensor)
z = x.type(torch.DoubleTensor)
w = x.type('torch.IntTensor')
v = x.type(torch.float64)
print(y, z, w, v)
print(x.type(torch.FloatTensor) is x, x.type('torch.FloatTensor') is x, x.type(torch.Tensor) is x)
print(z.type(torch.Tensor).dtype, x.type(torch.DoubleTensor, True).dtype)
try:
    x.type('bad')
except ValueError as e:
    print(e)
try:
    x.type(int)
except ValueError as e:
    print(e)
try:
    x.type(3)
except TypeError as e:
    print(e)
try:
    x.type(torch.DoubleTensor, non_blocking=1)
except TypeError as e:
    print(e)
s = (z * 2).sum()
s.backward()
