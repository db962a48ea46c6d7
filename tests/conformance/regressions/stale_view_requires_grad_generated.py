# gradcli: --requires-grad t7
# generator finding (seed 2026113034): requires_grad_() on a stale view whose grad_fn was never read makes it a leaf for the in-place check
x1 = torch.full((2, 1, 2), -1.5)
x2 = torch.linspace(3.0, 1.5, 3, dtype=torch.float32, requires_grad=True)
t3 = torch.bitwise_and((x2 > 0), (x2 < 1))
t4 = x1.view(2, -1)
x5 = torch.full((2, 1, 2), -1.0, dtype=torch.float32, requires_grad=True)
x1.copy_(x5)
x1.reciprocal_()
t6 = F.leaky_relu(x2)
t7 = t4.logical_not_()
print(t7.shape)
t8 = t6.logical_xor_(t3)
t4.relu_()
