# source: https://www.codegenes.net/blog/pytorch-custom-cost-function (the function and the nn.Module custom MSE examples, in order; indentation lost in the page text restored)
import torch
def custom_mse_loss(y_pred, y_true):
    return torch.mean((y_pred - y_true) ** 2)
# Example usage
y_pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y_true = torch.tensor([1.2, 2.1, 3.2])
loss = custom_mse_loss(y_pred, y_true)
loss.backward()
print(f"Loss: {loss.item()}")
print(f"Gradients: {y_pred.grad}")
import torch
import torch.nn as nn
class CustomLoss(nn.Module):
    def __init__(self):
        super(CustomLoss, self).__init__()
    def forward(self, y_pred, y_true):
        return torch.mean((y_pred - y_true) ** 2)
# Example usage
custom_loss = CustomLoss()
y_pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y_true = torch.tensor([1.2, 2.1, 3.2])
loss = custom_loss(y_pred, y_true)
loss.backward()
print(f"Loss: {loss.item()}")
print(f"Gradients: {y_pred.grad}")
