# -x of a bool tensor is a runtime error, as floor/round/relu/+x (generator finding)
b = torch.tensor([True, False])
r = -b
