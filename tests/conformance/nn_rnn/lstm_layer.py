# nn.LSTM (float32: PyTorch's oneDNN layer, MkldnnRnnLayerBackward0): output, (h_n, c_n), two layers,
# batch_first, an LSTM classifier's training step
import torch.nn as nn
torch.manual_seed(3)
lstm = nn.LSTM(3, 5, num_layers=2, batch_first=True)
head = nn.Linear(5, 2)
print(lstm)
x = torch.randn(4, 6, 3)
out, (hn, cn) = lstm(x)
print(out.shape, hn.shape, cn.shape, out.grad_fn, hn.grad_fn, cn.grad_fn)
logits = head(out[:, -1])
loss = F.cross_entropy(logits, torch.tensor([0, 1, 1, 0]))
loss.backward()
print(loss, lstm.weight_ih_l0.grad[:2], lstm.bias_hh_l1.grad[:5])
