# round(decimals=) takes an int or a one-element integer tensor; a float (even nan) is PyTorch's TypeError
# (fuzz finding: nan reached int() inside the engine)
x = torch.tensor([1.2345, -2.5, 0.05, 2.675], requires_grad=True)
a = x.round(decimals=torch.tensor(1))
b = torch.round(x, decimals=-1)
print(a, b)
(a + b).sum().backward()
c = x.round(decimals=float('nan'))
