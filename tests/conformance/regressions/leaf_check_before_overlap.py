# leaf_inplace comes before the overlap check of an in-place op whose source shares memory (generator finding)
x3 = torch.zeros((1,), dtype=torch.float32, requires_grad=True)
t4 = torch.squeeze(x3, 0)
x3.add_(t4)
