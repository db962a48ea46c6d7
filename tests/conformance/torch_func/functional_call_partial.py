# functional_call with only some names replaced, a tuple of dicts, and strict=True's error
from torch.func import functional_call
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x = torch.tensor([[1.0, -1.0]])
print(functional_call(model, {'2.bias': torch.tensor([10.0])}, (x,)))
print(functional_call(model, ({'0.weight': torch.eye(2)}, {'0.bias': torch.zeros(2)}), (x,)))
try:
    functional_call(model, {'0.weight': torch.eye(2)}, (x,), strict=True)
except RuntimeError as e:
    print(e)
print(model(x))
