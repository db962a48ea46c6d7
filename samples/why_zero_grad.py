# Five more reasons a .grad is None or all zeros (samples/why_no_grad.py shows six others):
# gradcli run samples/why_zero_grad.py --show flags
x = torch.tensor([1.0, -2.0], requires_grad=True)
w = torch.tensor([0.5, 3.0], requires_grad=True)
r = torch.tensor([-1.0, -3.0], requires_grad=True)
with torch.inference_mode():
    i = x * 2                              # an inference tensor: it can never join a graph
e = x.data                                 # cut from the graph by .data
loss = (x * w).sum() + torch.relu(r).sum() # relu of negatives passes zeros on to r
loss.backward(inputs=[x, r])               # w is in the graph, but inputs= leaves it out
g, = torch.autograd.grad((x * x).sum(), x) # a gradient: no history without create_graph=True
print(x.grad, r.grad)
