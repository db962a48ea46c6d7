# a node reached by no gradient still unpacks its saved tensors: one modified in place fails the backward
x2 = torch.tensor([2.0, 0.0, 2.0], requires_grad=True)
t3 = x2.exp()
t9 = torch.norm(t3, 0)
x2.data.mul_(1)
t3.mul_(2)
t9.backward()
