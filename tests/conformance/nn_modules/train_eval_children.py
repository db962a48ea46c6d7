# train()/eval() set training recursively; children(), modules(), named_modules() in PyTorch's order
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))
print(model.training, model[1][0].training)
r = model.eval()
print(r is model, model.training, model[1][1].training)
model.train()
print(model[1].training)
print(list(model.children()))
print(len(list(model.modules())), list(model.modules())[2])
print([name for name, m in model.named_modules()])
