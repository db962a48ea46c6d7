x = torch.tensor(2.0, requires_grad=True)
print("ab" * 10**8)
