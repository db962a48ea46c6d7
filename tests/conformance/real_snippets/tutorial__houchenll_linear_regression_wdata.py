# source: https://github.com/houchenll/nlp-origin (notebook "用 pytorch 实现线性回归", the training cell verbatim)
import torch

x_data = [1.0, 2.0, 3.0]
y_data = [2.0, 4.0, 6.0]
w = torch.Tensor([1.0])
w.requires_grad = True

def forward(x):
    # 此处有自动类型转换，x自动转换为tensor，和w作矩阵乘法
    return x * w

def loss(x, y):
    y_pred = forward(x)
    # 代码是在构建计算图，不是在做计算
    return (y_pred - y) ** 2

print('predict (before training)', 4, forward(4).item())

# 前馈计算100轮
for epoch in range(100):
    for x, y in zip(x_data, y_data):
        # 正向前馈，计算出损失
        l = loss(x, y)
        # 反馈，计算梯度
        l.backward()
        print('\tgrad:', x, y, w.grad.item())
        # 使用梯度更新权重参数
        w.data = w.data - 0.01 * w.grad.data
        # 把权重中梯度的数据清零
        w.grad.data.zero_()
    print('progress:', epoch, l.item())

print('predict (after training)', 4, forward(4).item())
