# Python float/int/bool as dtypes (PyTorch's parser reads them as float64/int64/bool): creation functions, to(), a float64 leaf
x = torch.zeros(2, dtype=float)
print(x.dtype, torch.ones(2, dtype=int).dtype, torch.tensor([1, 0], dtype=bool).dtype, torch.full((2,), 3, dtype=float))
print(torch.arange(3, dtype=float), torch.zeros_like(x, dtype=int), torch.empty(1, dtype=bool).dtype)
y = torch.ones(2, dtype=int)
print(y.to(float), y.to(dtype=bool), torch.randn(2, dtype=float).dtype, torch.linspace(0, 1, 3, dtype=float))
w = torch.ones(3, dtype=float, requires_grad=True)
(w * 2).sum().backward()
