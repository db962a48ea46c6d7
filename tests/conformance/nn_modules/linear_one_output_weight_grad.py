# float32 mm with N == 1 and a column-major left operand (x.t() @ g over 2000 and 513 rows, a Linear to one feature's weight-gradient shape) in MKL's order; compared within tolerance here, bit for bit in tests/ops/test_gemv_order_live.py
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2000, 3)
w = torch.randn(1, 3, requires_grad=True)
y = F.linear(x, w)
y.backward(torch.randn(2000, 1))
print(w.grad.tolist())
g = torch.randn(2000, 1)
print(torch.mm(x.t(), g).tolist())
print(torch.mm(torch.randn(513, 7).t(), torch.randn(1, 513).t()).tolist())
