# roll of a 0-d tensor keeps it 0-d (numpy's ascontiguousarray made it 1-d); one shift with empty dims rolls the
# flattened tensor; a dim of a 0-d tensor is an IndexError
s = torch.tensor(2., requires_grad=True)
d = s.roll(1)
d.backward()
print(d.shape, s.grad)
a = torch.arange(6.).reshape(2, 3)
print(a.roll(1, ()), a.roll(-2, []))
t = torch.tensor(3.).roll(0, 0)
