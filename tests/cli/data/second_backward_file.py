# gradcli: --expect-error second_backward
# a second backward in the file fails at its line
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
