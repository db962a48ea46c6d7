# gradcli: --requires-grad w
# --requires-grad applies to assignments inside a def body too
def make():
    w = torch.tensor([1.0, 2.0])
    return w
p = make()
q = (p * p).sum()
