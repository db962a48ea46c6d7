# log_softmax/softmax of a 0-d +-inf is nan (x - max is inf - inf), as for a 1-element dimension
inf = float("inf")
for v in [inf, -inf, float("nan"), 1.0]:
    x = torch.tensor(v)
    print(torch.log_softmax(x, 0), torch.softmax(x, 0), F.log_softmax(torch.tensor([v]), 0), torch.softmax(torch.tensor([v, -inf]), 0), torch.log_softmax(torch.tensor([[v], [v]]), 1))
