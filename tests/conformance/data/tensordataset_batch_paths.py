# TensorDataset batches: a dataset of plain tensors (gradcli gathers each batch in one step), one whose tensor
# requires grad (StackBackward0 from the per-item views), an inference tensor, a custom sampler's indices
# (negative ones, a tensor index) and a view of a tensor: the same values, dtypes and flags as PyTorch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(10, 3)
Y = torch.arange(10)
B = torch.tensor([True, False] * 5)
for xb, yb, bb in DataLoader(TensorDataset(X, Y, B), batch_size=4, shuffle=True):
    print(xb.shape, xb.dtype, yb.tolist(), bb.tolist(), xb.requires_grad, xb.is_contiguous())
last_x = xb
W = torch.randn(6, 2, requires_grad=True)
for wb, in DataLoader(TensorDataset(W), batch_size=4):
    print(wb.grad_fn, wb.requires_grad)
wb.sum().backward()
print(W.grad)
with torch.inference_mode():
    I = torch.ones(5, 2)
for ib, in DataLoader(TensorDataset(I), batch_size=2):
    print(ib.is_inference(), ib.requires_grad)
for xb2, in DataLoader(TensorDataset(X), batch_sampler=[[-1, 0, 3], [9, -10]]):
    print(xb2)
V = X[:, 1]
for vb, in DataLoader(TensorDataset(V), batch_size=5):
    print(vb, vb.is_contiguous())
