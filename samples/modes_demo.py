# One intermediate, five ways to switch autograd off for it: gradcli modes samples/modes_demo.py --target h
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
h = x * w                      # the target: computed with history
loss = (h * h).sum() + (w * 2).sum()
loss.backward()
print(x.grad, w.grad)
