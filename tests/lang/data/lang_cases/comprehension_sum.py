# list comprehensions and sum() over tensors
ws = [torch.tensor(float(i), requires_grad=True) for i in range(1, 4)]
loss = sum(w * w for w in ws)
loss.backward()
print([w.grad.item() for w in ws], loss)
