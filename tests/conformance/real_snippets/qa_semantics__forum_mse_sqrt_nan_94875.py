# source: https://discuss.pytorch.org/t/function-mselossbackward-returned-nan-values-in-its-0th-output/94875 (the reply's repro, quoted in https://e-com-net.com/article/1610540118618177536.htm; imports added)
import torch
import torch.nn as nn

x = torch.randn(1, 1, requires_grad=True)
y = torch.zeros(1, 1)
criterion = nn.MSELoss()

loss = torch.sqrt(criterion(x * 0, y))
loss.backward()
print(x.grad)
