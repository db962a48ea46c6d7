# float64 normal draws of 16+ values (the fill's 16-value blocks), any shape, and the host's SIMD does not matter
# issue 16: on an AVX-512 host these failed with a `type` error at the randn line (numpy's float64 log differs there)
x = torch.randn(100, dtype=torch.float64)
print(x[:5].tolist(), x.sum().item())
m = torch.randn(4, 4, dtype=torch.float64)
e = torch.empty(20, dtype=torch.float64).normal_()
w = torch.empty(3, 7, dtype=torch.float64).normal_(0.5, 2.0)
print(m.sum().item(), e[-3:].tolist(), w[2].tolist())
