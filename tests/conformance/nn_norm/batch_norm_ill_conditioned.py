# batch_norm over channels whose values barely differ across the batch (1/std ~ 300-1000): the weight and input
# gradients are sums that cancel, and their float32 values are ATen's kernels' (double sums, the fused tails,
# the channels-last buffers), past tolerance of a float64 formula; BatchNorm1d on (N, C) and (N, C, L), BatchNorm2d.
# (An (N, C) input's sums are split among PyTorch's threads, so its last bits depend on the thread count: printed
# rounded; the tensors compare within tolerance.)
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)
x = torch.tensor([[0.125, 1.5, -2.0], [0.128, 1.501, -2.003], [0.126, 1.5004, -2.0011], [0.127, 1.5012, -2.0007]],
                 requires_grad=True)
y = bn(x)
(y * torch.randn(4, 3)).sum().backward()
print([round(v, 4) for v in bn.weight.grad.tolist()], [round(v, 4) for v in x.grad[0].tolist()])
print([round(v, 5) for v in bn.running_mean.tolist() + bn.running_var.tolist()])
bn3 = torch.nn.BatchNorm1d(2)
u = (torch.full((3, 2, 5), 0.7) + torch.rand(3, 2, 5) * 0.003).requires_grad_()
(bn3(u) ** 3).sum().backward()
print(bn3.weight.grad.tolist(), u.grad[0].tolist())
bn2 = torch.nn.BatchNorm2d(2)
with torch.no_grad():
    bn2.weight.copy_(torch.randn(2))
    bn2.bias.copy_(torch.randn(2))
v = (torch.full((2, 2, 3, 3), -1.25) + torch.rand(2, 2, 3, 3) * 0.002).requires_grad_()
bn2(v).sum().backward()
w = torch.randn(2, 2, 3, 3)
out = bn2(v)
(out * w).sum().backward()
print(bn2.weight.grad.tolist(), v.grad[1, 0].tolist())
bn2.eval()
z = bn2(v)
print(z[0, 1].tolist())
