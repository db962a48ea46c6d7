# step() changes the parameter in place (under no_grad): a graph that saved it fails at backward, as PyTorch
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
y = (w * w).sum()
y.backward(retain_graph=True)
opt.step()
print(w, w.is_leaf, w.grad_fn)
y.backward()
