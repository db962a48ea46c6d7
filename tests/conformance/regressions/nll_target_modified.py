# nll_loss saves its target: an in-place change of the target after the forward fails the backward
L = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
t = torch.tensor([0, 2])
y = F.nll_loss(L.log_softmax(1), t)
t.add_(0)
y.backward()
