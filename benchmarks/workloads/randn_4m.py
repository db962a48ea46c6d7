# manual_seed(0); randn(4_000_000) + backward: bit-exact RNG throughput
torch.manual_seed(0)
x = torch.randn(4_000_000, requires_grad=True)
loss = x.sum()
loss.backward()
