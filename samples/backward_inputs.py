# backward(inputs=[...]) accumulates only into the tensors you name; a non-leaf named there gets .grad too.
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
h = a * b          # non-leaf
loss = (h ** 2).sum()
loss.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)          # only a: b.grad stays None
loss.backward(inputs=[h])
print(h.grad, h.retains_grad)  # dloss/dh = 2h, and h now retains its grad
print(a.grad)                  # unchanged by the second call
