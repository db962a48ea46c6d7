# ModuleList / ModuleDict: registration, iteration, len, print folding repeated blocks, parameter names
import torch.nn as nn
torch.manual_seed(0)
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Tanh()})
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.heads["b"](self.heads["a"](x))
m = Stack()
print(m)
print(len(m.layers), "a" in m.heads, list(m.heads.keys()))
print([n for n, _ in m.named_parameters()])
y = m(torch.randn(3, 2)).sum()
y.backward()
