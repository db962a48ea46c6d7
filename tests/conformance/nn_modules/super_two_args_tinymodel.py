# super(TinyModel, self).__init__(), model.layer2.weight[0][0:10] slices, accumulation without zero_grad
torch.manual_seed(0)
class TinyModel(torch.nn.Module):
    def __init__(self):
        super(TinyModel, self).__init__()
        self.layer1 = torch.nn.Linear(10, 6)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(6, 3)
    def forward(self, x):
        return self.layer2(self.relu(self.layer1(x)))
model = TinyModel()
inp = torch.randn(4, 10)
print(model.layer2.weight[0][0:4])
print(model.layer2.weight.grad)
for i in range(2):
    loss = model(inp).pow(2).sum()
    loss.backward()
print(model.layer2.weight.grad[0][0:4])
model.zero_grad()
print(model.layer2.weight.grad)
