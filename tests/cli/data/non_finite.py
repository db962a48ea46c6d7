# non-finite values are "nan"/"inf"/"-inf" in JSON
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x.log()
z = x / 0.0
