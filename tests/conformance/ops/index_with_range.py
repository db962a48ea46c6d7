# a range as an index is a sequence index (IndexBackward0), alone, in a tuple key with a list or a tensor, and on
# the left of an assignment, as the nn tutorial's preds[range(n), target] uses it
x = torch.arange(12.).reshape(3, 4).requires_grad_()
target = torch.tensor([0, 2, 1])
picked = x[range(3), target]
print(picked, x[range(2)].shape, x[:, range(1, 4, 2)].shape, x[range(0)].shape)
loss = -picked.mean()
loss.backward()
print(x.grad)
y = x.detach().clone()
y[range(2)] = 0
print(y)
