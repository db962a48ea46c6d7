# source: https://github.com/tinygrad/tinygrad/issues/2584 (the commenter's "working version in pytorch", verbatim up to the page's cut-off assert, completed as .detach().numpy())
from torch import tensor as Tensor
import numpy as np

x = Tensor(2., requires_grad=True)
y = (3.*x).exp()

# use of torch.autograd.grad is recommended instead of this...
y.backward(create_graph=True)
dydx = x.grad

x.grad = None      # otherwise grad is dydx + d2ydx2
dydx.backward()
d2ydx2 = x.grad

assert np.isclose(d2ydx2.detach().numpy(), 9*y.detach().numpy())
