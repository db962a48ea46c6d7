# the scalar-conversion warning comes once per run, at the first conversion: here torch.tensor([...]) of tensors
# that require grad, then float() in a training-style loop warns no more
w = torch.tensor(0.5, requires_grad=True)
history = torch.tensor([w, w * 2])
total = 0.0
for step in range(3):
    loss = (w * step - 1) ** 2
    total += float(loss)
    loss.backward()
print(history, total, w.grad)
