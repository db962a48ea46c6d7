# source: https://github.com/FreedomIntelligence/TextClassificationBenchmark/issues/20 ("why donot use optimizer.zero_grad in each training step?": main.py, zero_grad() once before the loop; the loop over train_iter is a range loop over 3 fixed batches, its batch-size check and clip_gradient left out, the LSTM model an nn.Linear + LogSoftmax, the batches from torch.randn; NLLLoss imported from torch.nn)
import torch
import torch.nn as nn
import torch.optim as optim
from torch.nn import NLLLoss
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 3), nn.LogSoftmax(dim=1))
model.train()
optimizer = optim.Adam(model.parameters(), lr=0.01)
optimizer.zero_grad()
loss_fun = NLLLoss()
text, label = torch.randn(4, 5), torch.tensor([0, 2, 1, 0])

for index in range(3):
    predicted = model(text)
    loss = loss_fun(predicted, label)
    loss.backward()
    optimizer.step()
