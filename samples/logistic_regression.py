# One training step of logistic regression: matmul + bias + binary cross-entropy with logits.
torch.manual_seed(0)
X = torch.randn(8, 3)
y = (X[:, 0] > 0).to(X.dtype)   # 0/1 labels in X's dtype (float64 under gradcli check)
W = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
logits = (X @ W + b).squeeze(1)
loss = F.binary_cross_entropy_with_logits(logits, y)
loss.backward()
print(loss)
with torch.no_grad():
    W -= 0.5 * W.grad
    b -= 0.5 * b.grad
print(W.grad.squeeze(1), b.grad)
print(W.squeeze(1), b)
