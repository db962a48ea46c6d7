# source: https://taourl.com/read-2374996.html (Is torch.no_grad needed in eval mode? the post's first example: model.eval() alone, y still requires grad; the page lost the call parentheses of model.eval(), restored; the torch.no_grad half left out)
import torch
import torch.nn as nn
model = nn.Linear(10, 1)
model.eval()  # Evaluation mode
# Without torch.no_grad
x = torch.randn(1, 10, requires_grad=True)
y = model(x)
print(y.requires_grad)  # Output: True
