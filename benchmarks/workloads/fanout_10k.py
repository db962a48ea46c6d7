# 10,000 branches from one leaf, summed: fan-out (10,000 gradients into one input buffer) and fan-in
x = torch.ones(4, requires_grad=True)
branches = []
for i in range(10_000):
    branches.append(x * (i + 1))
total = torch.stack(branches).sum()
total.backward()
