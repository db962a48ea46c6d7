# trace's backward fills the diagonal with the gradient and leaves zeros elsewhere, even for a nan gradient
# (var of one element is nan); generator finding
torch.manual_seed(3)
x1 = torch.randn(2, 4, dtype=torch.float32, requires_grad=True)
t3 = x1.trace()
t5 = torch.var(t3, -1)
t5.backward()
print(x1.grad)
y = torch.ones(3, 3, requires_grad=True)
(y.trace() * float('inf')).backward()
print(y.grad)
