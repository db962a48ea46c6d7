# source: https://github.com/Himanshu809f/DEEP_LEARNING/blob/HEAD/optimizer.py (verbatim)
import torch
import torch.nn as nn
import torch.optim as optim

inputs = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
labels = torch.tensor([[0.], [1.], [1.], [0.]])

class XORNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        return torch.sigmoid(self.fc2(x))
    
model = XORNet()
criterion = nn.BCELoss()
optimizer = optim.Adam(model.parameters(), lr=0.05)

for epoch in range(5000):
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()

pred = (model(inputs) > 0.5).int()
print("Predictions:", pred.view(-1).tolist())
print("Expected: [0, 1, 1, 0]")
