# an inference tensor (requires_grad) used outside inference_mode with a Python number: PyTorch records a node
# where the number is wrapped below autograd (remainder, rsub, masked_fill), none where it is not (generator finding)
with torch.inference_mode():
    x5 = torch.tensor([-0.5, 0.25], requires_grad=True)
a = x5 * 2.0
b = x5 + 1
c = x5.remainder(0.25)
d = x5.pow(2)
e = x5.clamp(0.0)
f = x5.sin()
g = x5 - 1.5
h = x5 / 3.0
j = torch.mul(x5, 2)
k = x5.add(1.0, alpha=2)
l = torch.where(x5 > 0, x5, 0.0)
m = x5.masked_fill(x5 > 0, 1.0)
n = x5 ** 2.0
o = 2.0 - x5
p = torch.remainder(x5, 0.5)
q = x5.floor_divide(0.5)
print(c.grad_fn.next_functions, o.grad_fn.next_functions, m.grad_fn.next_functions)
(c.sum() + o.sum() + m.sum() + p.sum()).backward()
print(x5.grad)
