# gradcli: --expect-error second_backward
# Mistakes `gradcli lint samples/lint_mistakes.py` finds without running anything.
x = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(2):
    loss = (x * x).sum()
    loss.backward()            # grad_accumulates: nothing in the loop zeroes x.grad
y = x * 3
z = y.sum()
z.backward()
print(y.grad)                  # non_leaf_grad: y is not a leaf (a warning, and None)
x.data.mul_(2)                 # data_use: a change autograd does not see
z.backward()                   # second_backward: the backward at line 9 freed the graph
