# index_select: a bad index on dim 1 of a 2-d input is the runtime 'INDICES element is out of DATA bounds' error
x = torch.ones(2, 3, requires_grad=True)
y = x.index_select(1, torch.tensor([0, -1]))
