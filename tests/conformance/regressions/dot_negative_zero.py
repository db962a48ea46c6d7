# dot sums from +0.0 as BLAS does: a lone -0.0 product gives +0.0
a = torch.tensor([-1.0], dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64)
print(a.dot(b), torch.dot(torch.tensor([-1.0, 2.0]), torch.tensor([0.0, -0.0])), torch.tensor([-0.0]).dot(torch.tensor([1.0])), torch.dot(torch.tensor([2.0, 3.0]), torch.tensor([4.0, 0.5])), torch.dot(torch.tensor([], dtype=torch.float64), torch.tensor([], dtype=torch.float64)))
print(torch.tensor([3, -1]).dot(torch.tensor([0, 0])))
print(torch.tensor([2**60, 3]).dot(torch.tensor([1, 0])))
