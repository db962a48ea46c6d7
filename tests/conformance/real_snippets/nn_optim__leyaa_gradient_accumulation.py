# source: https://leyaa.ai/codefly/learn/pytorch/part-1/pytorch-gradient-accumulation-and-zeroing (the complete example; indentation lost in the page text restored, the excerpt's cut-off last line "preds = model(input" completed as the first print block)
import torch
import torch.nn as nn
import torch.optim as optim

# Simple model
class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(2, 1)

    def forward(self, x):
        return self.linear(x)

# Data: 8 samples, 2 features
inputs = torch.tensor([[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [4.0, 3.0], [5.0, 6.0], [6.0, 5.0], [7.0, 8.0], [8.0, 7.0]])
labels = torch.tensor([[3.0], [3.0], [7.0], [7.0], [11.0], [11.0], [15.0], [15.0]])

model = SimpleModel()
loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
accumulation_steps = 4

print('Before training:')
with torch.no_grad():
    preds = model(inputs)
    print(preds.squeeze().tolist())

optimizer.zero_grad()
for i in range(len(inputs)):
    input_i = inputs[i].unsqueeze(0)
    label_i = labels[i].unsqueeze(0)
    output = model(input_i)
    loss = loss_fn(output, label_i)
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()

print('\nAfter one epoch with gradient accumulation:')
with torch.no_grad():
    preds = model(inputs)
    print(preds.squeeze().tolist())
