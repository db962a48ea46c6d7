# source: https://taourl.com/read-2508379.html (model.eval() and gradient descent: the post's example that gradients still flow in eval mode; the page lost the call parentheses and a minus sign and a closing parenthesis, restored)
import torch
import torch.nn as nn
model = nn.Sequential(
    nn.Linear(10, 5),
    nn.ReLU(),
    nn.Dropout(0.5),
    nn.Linear(5, 1))
x = torch.randn(1, 10, requires_grad=True)
target = torch.randn(1, 1)
# Training mode (default)
model.train()
output_train = model(x)
loss_train = (output_train - target).pow(2).mean()
loss_train.backward()
print("Gradients in train mode:", x.grad)  # Gradients exist
# Evaluation mode
model.eval()
x.grad = None  # Reset gradients
output_eval = model(x)
loss_eval = (output_eval - target).pow(2).mean()
loss_eval.backward()
print("Gradients in eval mode:", x.grad)  # Gradients still exist
