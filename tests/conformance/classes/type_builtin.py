# type(obj): the classes PyTorch code compares and prints (model.apply(init_weights) with type(m) == nn.Linear, type(x) is torch.Tensor)
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.fc(x))

def init(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 0.5)
        print("init", type(m), type(m.weight), type(m.bias) is nn.Parameter)
    elif type(m) is Net:
        print("net", type(m), type(m) == nn.Module, isinstance(m, type(m)))
    else:
        print("other", type(m))

net = Net()
net.apply(init)
x = torch.ones(1, 2, requires_grad=True)
y = net(x)
print(type(x), type(y) is torch.Tensor, type(x.shape), type(x.dtype), type(x.sum().item()), type(x.tolist()))
print(type(1), type(1.5), type(True), type("s"), type((1,)), type({}), type(range(2)), type({1}), type(frozenset()))
print(type(torch.optim.SGD(net.parameters(), lr=0.1)), type(torch.optim.Adam(net.parameters())))
print(type(x) == type(y), type(net.fc)(3, 1), type(3)("4") + 1, type([1, 2])(range(3)))
print(type(torch.utils.data.TensorDataset(x)), type(torch.no_grad()), type(torch.device("cpu")))
y.sum().backward()
