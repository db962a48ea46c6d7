# an uncaught raise of ValueError ends the run with kind runtime at the raise line
x = torch.ones(2, requires_grad=True)
y = x * 2
def check(t):
    if t.sum() > 3:
        raise ValueError(f"too big: {t.sum().item()}")
    return t
check(y)
print("not reached")
