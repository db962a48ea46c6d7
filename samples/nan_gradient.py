# Why does a .grad hold NaN? Two common causes, each explained with its line (`gradcli check` reports a mismatch).
# gradcli run samples/nan_gradient.py   (add --detect-anomaly to see the forward op that made the first inf)
x = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
y = torch.where(x > 2, torch.log2(x), 2 * x)  # log2(0) is -inf in the unselected branch: Log2Backward0 line 4
y.sum().backward()                         # where passes 0 to that branch, and 0 × inf = NaN in x.grad[0]
d = torch.tensor([0.0, 1.0], requires_grad=True)
r = torch.sqrt(d)                          # SqrtBackward0: its derivative 1/(2·sqrt(d)) is inf at 0
(r * 0).sum().backward()                   # 0 × inf = NaN in d.grad[0]
print(x.grad, d.grad)
