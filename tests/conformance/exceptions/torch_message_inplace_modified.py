# str(e) of inplace_modified is PyTorch's: tensor type and sizes, which output of which node (the saving node for
# a saved output, the tensor's grad_fn now for a saved input), the versions, the hint
x = torch.tensor([1.0, 2.0], requires_grad=True)
def report(f):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
def saved_output():
    y = x.exp()
    y.add_(1)
    y.sum().backward()
report(saved_output)
def saved_output_pow():
    y = x ** 2.5
    z = y ** x
    z.mul_(2)
    z.sum().backward()
report(saved_output_pow)
def saved_input_rebased():
    z = x.clone()
    w = z * z
    z.add_(1)
    w.sum().backward()
report(saved_input_rebased)
def saved_input_copyslices():
    z = x * 1
    w = z * z
    z[0] = 1
    w.sum().backward()
report(saved_input_copyslices)
def saved_view_rebased():
    z = x * 2
    v = z[0:1]
    w = v * v
    z.add_(1)
    w.sum().backward()
report(saved_view_rebased)
def saved_leaf():
    w = x * x
    with torch.no_grad():
        x.add_(1)
    w.sum().backward()
report(saved_leaf)
def saved_long():
    o = torch.ones(2, dtype=torch.int64)
    w = x * o
    o.add_(1)
    w.sum().backward()
report(saved_long)
def saved_bool_mask():
    m = torch.tensor([True, False])
    w = x.clone()[m]
    m.logical_not_()
    w.sum().backward()
report(saved_bool_mask)
def saved_double_2d():
    d = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    y = d.t().sigmoid()
    y.mul_(2)
    y.sum().backward()
report(saved_double_2d)
def saved_scalar():
    s = torch.tensor(3.0, requires_grad=True)
    y = (s * 2).tanh()
    y += 1
    y.backward()
report(saved_scalar)
def under_anomaly_mode():
    with torch.autograd.detect_anomaly():
        y = x.sigmoid()
        y.mul_(2)
        y.sum().backward()
report(under_anomaly_mode)
