# source: http://hbase.cn/archives/1576.html (Chinese blog on register_forward_hook: the SimpleCNN example verbatim)
import torch
import torch.nn as nn

# 定义一个简单的卷积神经网络
class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, kernel_size=3, stride=1, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(32 * 14 * 14, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.pool(x)
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        return x

# 定义一个钩子函数
def hook_fn(module, input, output):
    print(f"Inside {module.__class__.__name__}")
    print(f"Input shape: {input[0].shape}")
    print(f"Output shape: {output.shape}")

# 创建模型实例
model = SimpleCNN()

# 为卷积层注册钩子
hook = model.conv1.register_forward_hook(hook_fn)

# 创建一个随机输入
input_tensor = torch.randn(1, 1, 28, 28)

# 前向传播
output = model(input_tensor)

# 移除钩子
hook.remove()
