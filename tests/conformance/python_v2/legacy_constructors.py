# legacy constructors as PyTorch 2.13 runs them: FloatTensor, LongTensor, torch.Tensor, autograd.Variable
a = torch.FloatTensor([1, 2, 3])
b = torch.LongTensor([1, 2])
c = torch.Tensor([[1, 2], [3, 4]])
d = torch.Tensor(2, 3).shape
e = torch.DoubleTensor([0.5])
print(a, b, c, d, e, torch.Tensor())
v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
w = torch.autograd.Variable(a)
print(v, w, w is a, v.is_leaf)
out = (v * a[:2]).sum()
