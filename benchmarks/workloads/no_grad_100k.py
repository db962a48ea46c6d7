# issue 21: 100,000 small ops without grad -- 25,000 iterations of four ops on shape (4,) under no_grad
x = torch.ones(4)
with torch.no_grad():
    for i in range(25_000):
        x = torch.tanh(x * 1.01 + 0.5) * 0.99
s = x.sum()
