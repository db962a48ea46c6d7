# source: https://github.com/zqb-knight/deepLearning/blob/f8762e573b293eb33185ff2ee1484c9a98469fc3/logisticRegression/main.py (the whole script: logistic regression whose __init__ calls super(LinearModel, self), a name the file never defines)
import torch

x_data = torch.Tensor([[1.0], [2.0], [3.0]])
y_data = torch.Tensor([[0], [0], [1]])


class LogisticRegressionModel(torch.nn.Module):
    def __init__(self):
        super(LinearModel, self).__init__()
        self.Linear = torch.nn.Linear(1, 1)

    def forward(self, x):
        y_pred = torch.sigmoid(self.Linear(x))
        return y_pred


model = LogisticRegressionModel()
criterion = torch.nn.BCELoss(size_average=False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(1000):
    y_pred = model.forward(x_data)
    loss = criterion(y_pred, y_data)
    print(epoch, loss)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print("w=", model.Linear.weight.item())
print("b=", model.Linear.bias.item())

x_test = torch.Tensor([[3.0]])
y_test = model(x_test)
print("After training:", y_test.data)
