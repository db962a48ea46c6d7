# source: https://duoke360.com/post/35061 (cause 3, "model parameters not registered": all Linear parameters frozen, then backward; `import torch` added)
import torch
model = torch.nn.Linear(1, 1)
for param in model.parameters():
    param.requires_grad = False # 禁用所有参数梯度
out = model(torch.tensor([1.0]))
out.backward() # 错误!参数不需要梯度
