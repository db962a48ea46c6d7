# F.logsigmoid saves log_sigmoid_forward's buffer exp(-|x|): after a change of x through .data (which autograd does
# not see), the backward kernel reads only the sign from the new x and the rest from the buffer (generator finding,
# seed 2026121631).
x2 = torch.tensor([-1.0, 3.0, -1.0], dtype=torch.float32, requires_grad=True)
t3 = x2.data
t5 = F.logsigmoid(x2)
t3.log1p_()
t5.mean().backward()
w = torch.tensor([-2.0, 0.5, 1.5], dtype=torch.float64, requires_grad=True)
y = F.logsigmoid(w)
g, = torch.autograd.grad(y.sum(), w, create_graph=True)
w.data.mul_(-1.0)
gg, = torch.autograd.grad(g.sum(), w)
