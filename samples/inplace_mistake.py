# gradcli: --expect-error inplace_modified
# An in-place op on a tensor that backward still needs: sigmoid saves its output.
# Fix: s = s * 2 (out of place) instead of s.mul_(2).
x = torch.tensor([0.0, 1.0], requires_grad=True)
s = torch.sigmoid(x)
s.mul_(2)              # changes the saved output (version 0 -> 1)
s.sum().backward()     # fails: SigmoidBackward0 needs the original output
