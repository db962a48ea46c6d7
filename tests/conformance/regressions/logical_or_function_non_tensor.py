# torch.logical_or(a, 2.0): 'other' is at position 2 in the function form
a = torch.ones(3)
z = torch.logical_or(a, 2.0)
