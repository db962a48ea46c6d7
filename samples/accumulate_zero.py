# .grad accumulates across backward calls until you zero it.
w = torch.tensor([1.0, -1.0], requires_grad=True)
for step in range(3):
    loss = (w * 4).sum()
    loss.backward()
    print(step, w.grad)        # 4, 8, 12: each backward adds
w.grad.zero_()                 # what optimizer.zero_grad() does
loss = (w * 4).sum()
loss.backward()
print(w.grad)                  # back to 4
