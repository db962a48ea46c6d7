# a float64 sum follows PyTorch's order (4 AVX2 lanes, 4 accumulators, cascade), which .item() shows to the last
# digit; numpy's pairwise order differs in most sums of 5 or more values; arange computes start + i * step in
# double, block by block; mean (float32 too) is that sum, then one division
b = torch.arange(-3, 100000, 3.7, dtype=torch.float64)
print(b.sum().item())
x = torch.tensor([0.1, 0.7, 1e-3, 3.3, -2.9, 11.0, 0.05], dtype=torch.float64, requires_grad=True)
s = (x * 1.3).sum()
print(s.item(), x.mean().item(), (x * x).sum().item())
s.backward()
print(x.grad)
c = torch.arange(70000.0) * 6e-7 - 3.0
print(c[-3:], c[:2])
e = torch.arange(2**60, 2**60 + 70000 * 2**40, 2**40, dtype=torch.float32)
print(e[-3:], e[:2])
x = torch.tensor([0.1, 0.7, 1e-3, 3.3, -2.9, 11.0, 0.05], requires_grad=True)
print(x.mean().item(), x.sum().item())
y = torch.tensor([[0.1, 0.7, 1e-3], [3.3, -2.9, 11.0]])
print(y.mean().item(), y.t().mean().item(), y.mean(dtype=torch.float64).item())
z = torch.tensor([1, 2, 3, 4, 5, 6, 7]).float()
print(z.mean(), torch.tensor([]).mean())
