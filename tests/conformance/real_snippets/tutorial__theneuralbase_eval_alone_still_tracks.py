# source: https://theneuralbase.com/pytorch/learn/beginner/requires-grad-true-tracking-operations/ (requires_grad=True tutorial, its GOTCHA lines: model.eval() alone still tracks; a small model and test_batch made with nn.Linear and torch.randn added, the no_grad lines before it left out)
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(4, 1)
test_batch = torch.randn(1, 4)
# GOTCHA: model.eval() alone is NOT enough — it only disables dropout/batchnorm
# The graph still builds unless you add torch.no_grad()
model.eval()
predictions = model(test_batch)  # WRONG: still tracks, burns VRAM
