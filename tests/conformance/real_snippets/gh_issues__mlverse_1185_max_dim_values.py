# source: https://github.com/mlverse/torch/issues/1185 (Backward pass fails on torch_max: the "analogous code in Python", a REPL line list -> script, its displayed m_tensor.grad -> print)
import torch

m_tensor = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=torch.float64, requires_grad=True)
n = torch.max(m_tensor, dim=1).values
n_sum = torch.sum(n)
n_sum.backward()
print(m_tensor.grad)
