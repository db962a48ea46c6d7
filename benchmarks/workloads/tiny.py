# tiny: 3 ops + backward -- what start-up costs (whole process is the view that matters)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * 2 + 1).sum()
y.backward()
