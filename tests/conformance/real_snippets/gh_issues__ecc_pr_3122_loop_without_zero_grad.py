# source: https://github.com/affaan-m/ECC/pull/3122 (greptile review: "The loop calls loss.backward() and optimizer.step() without clearing gradients first" in the LLM-from-scratch pretraining loop; the loop as quoted, with a small model, optimizer, data loader and calc_loss_batch made with nn.Linear, SGD, TensorDataset and mse_loss)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = DataLoader(TensorDataset(torch.randn(4, 3), torch.randn(4, 1)), batch_size=2)
device = "cpu"

def calc_loss_batch(x, y, model, device):
    return F.mse_loss(model(x), y)

for x, y in train_loader:
    loss = calc_loss_batch(x, y, model, device)
    loss.backward(); optimizer.step()
