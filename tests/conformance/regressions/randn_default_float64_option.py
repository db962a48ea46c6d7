# gradcli: --dtype float64
# randn under --dtype float64 (what `gradcli check` reruns every file with) draws PyTorch's float64 stream
torch.manual_seed(1)
a = torch.randn(4, 4)
b = torch.rand(17)
print(a.dtype, a[0].tolist(), b.sum().item())
