# gradcli: --expect-error second_backward
# The second backward through the same graph fails: the first one freed the saved tensors.
# Fix: y.backward(retain_graph=True) the first time (or rebuild y before each backward).
x = torch.tensor(2.0, requires_grad=True)
y = x.exp() * 3        # MulBackward0 saves the constant 3, ExpBackward0 saves exp(x)
y.backward()
print(x.grad)          # 3 * e^2
y.backward()           # fails here: MulBackward0's saved constant was freed by the first backward
