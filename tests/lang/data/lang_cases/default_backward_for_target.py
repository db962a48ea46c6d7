# a for-loop target is not an assignment statement: the default backward uses the last assignment
x = torch.tensor([1.0, 2.0], requires_grad=True)
s = (x * 5).sum()
for t in [x * 7]:
    pass
