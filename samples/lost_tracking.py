# gradcli: --expect-error no_grad_fn
# The loss has no grad_fn because tracking was lost two lines earlier; the error card names that line.
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    h = torch.tanh(x)          # no graph is recorded here
loss = (h * 3).sum()           # computed only from h: no grad_fn
loss.backward()                # fails: element 0 of tensors does not require grad
