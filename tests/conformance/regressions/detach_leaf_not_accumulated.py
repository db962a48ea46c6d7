# a leaf detach_()-ed after use gets no .grad from the graph built before (AccumulateGrad checks) (generator finding)
x = torch.full((2, 2), 1.0, requires_grad=True)
y = F.relu(x) * 3
x.detach_()
y.sum().backward()
print(x.grad)
