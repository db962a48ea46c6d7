# source: https://runebook.dev/zh/docs/pytorch/generated/torch.tensor.sigmoid_ (Chinese page on sigmoid_ pitfalls: the first "故障示例", verbatim)
import torch

# 创建一个需要梯度的张量
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# 假设后面需要用到 x 的梯度来更新模型参数
try:
    # 尝试在计算图的关键点使用原地操作
    y = x * 2
    y.sigmoid_() # <--- 这是一个原地操作!
    z = y.sum()
    z.backward()
    print("梯度:", x.grad)
except RuntimeError as e:
    print(f" 运行错误: {e}")
    # 错误通常是 "A view was modified inplace..." 或与 Autograd 相关的错误
