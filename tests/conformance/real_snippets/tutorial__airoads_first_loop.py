# source: https://airoads.org/ch06-deep-learning/ch02-pytorch/00-roadmap/ (pytorch_first_loop.py; indentation lost in the page text restored)
import torch
w = torch.tensor([0.0], requires_grad=True)
learning_rate = 0.2
for step in range(1, 5):
    loss = (w - 3).pow(2)
    loss.backward()
    with torch.no_grad():
        w -= learning_rate * w.grad
        w.grad.zero_()
    print(step, "w=", round(w.item(), 3), "loss=", round(loss.item(), 3))
