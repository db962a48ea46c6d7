# 3-layer MLP, batch 512, width 1024, 5 SGD steps: BLAS-bound
torch.manual_seed(0)
x = torch.randn(512, 1024)
target = torch.randn(512, 10)
w1 = (torch.randn(1024, 1024) * 0.03).requires_grad_()
b1 = torch.zeros(1024, requires_grad=True)
w2 = (torch.randn(1024, 1024) * 0.03).requires_grad_()
b2 = torch.zeros(1024, requires_grad=True)
w3 = (torch.randn(1024, 10) * 0.03).requires_grad_()
b3 = torch.zeros(10, requires_grad=True)
params = [w1, b1, w2, b2, w3, b3]
for step in range(5):
    h1 = torch.relu(x @ w1 + b1)
    h2 = torch.relu(h1 @ w2 + b2)
    out = h2 @ w3 + b3
    loss = ((out - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.01 * p.grad
    for p in params:
        p.grad.zero_()
