# issue 17: a small training loop as tutorials write it -- 2-layer MLP (64 -> 128 -> 10, ReLU),
# CrossEntropyLoss, Adam, batch 32, 500 steps over a TensorDataset with DataLoader(shuffle=True)
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(16000, 64)
Y = torch.randint(0, 10, (16000,))
loader = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for xb, yb in loader:
    opt.zero_grad()
    loss = loss_fn(model(xb), yb)
    loss.backward()
    opt.step()
print(loss.item())
