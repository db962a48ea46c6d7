# the create_graph warning comes from the engine, after backward's inputs are checked: an input error comes alone (generator finding)
x1 = torch.ones(2, requires_grad=True)
with torch.no_grad():
    t6 = x1 * 2
z = (x1 * x1).sum()
torch.autograd.backward(z, create_graph=True, inputs=[x1, t6])
