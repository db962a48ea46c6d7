# CrossEntropyLoss (weight, ignore_index, label_smoothing) and NLLLoss over LogSoftmax
import torch.nn as nn
torch.manual_seed(0)
logits = torch.randn(5, 3, requires_grad=True)
y = torch.tensor([0, 2, 1, 2, 0])
ce = nn.CrossEntropyLoss()(logits, y)
cew = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]), ignore_index=1)(logits, y)
cels = nn.CrossEntropyLoss(label_smoothing=0.1, reduction="sum")(logits, y)
nll = nn.NLLLoss()(nn.LogSoftmax(dim=1)(logits), y)
print(ce, cew, cels, nll)
print(nn.CrossEntropyLoss(), nn.NLLLoss(reduction="none")(nn.LogSoftmax(dim=1)(logits), y))
(ce + cew + cels + nll).backward()
