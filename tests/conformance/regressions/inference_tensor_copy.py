# clone()/to() of an inference tensor that requires grad, outside inference_mode: PyTorch's copy is empty + copy_, recorded as CopyBackwards; unary ops record nothing, binary ops with a number do (generator finding)
with torch.inference_mode():
    x8 = torch.ones(3, dtype=torch.float64, requires_grad=True)
a = torch.clone(x8)
b = x8.clone()
c = x8 * 2
d = x8 + 1
e = x8.exp()
f = x8.sum()
g = x8.view(3)
h = x8[0:2]
i = x8.detach()
j = x8.neg()
k = x8.to(torch.float32)
l = x8.contiguous()
m = x8.sin()
n = x8 * torch.ones(3, dtype=torch.float64)
o = torch.ones(3, dtype=torch.float64, requires_grad=True) * x8
a.sum().backward()
print(x8.grad)
