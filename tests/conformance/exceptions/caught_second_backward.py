# a second backward caught with except RuntimeError: print(e) is PyTorch's message; the graph is rebuilt after
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print("caught:", e)
    print(len(e.args), isinstance(e, Exception))
y = (x * x).sum()
y.backward()
print(x.grad)
