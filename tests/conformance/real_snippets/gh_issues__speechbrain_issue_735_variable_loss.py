# source: https://github.com/speechbrain/speechbrain/issues/735 (the reporter wraps the loss as loss=Variable(loss,requires_grad=True); here with the import it needs, a small linear model for compute_forward's encoder and data for its feats and targets)
import torch
from torch.autograd import Variable
model = torch.nn.Linear(3, 2)
feats = torch.randn(4, 3)
targets = torch.randn(4, 2)
predict = model(feats)
loss = torch.nn.functional.mse_loss(predict, targets)
loss=Variable(loss,requires_grad=True)
loss.backward()
weight = model.weight
