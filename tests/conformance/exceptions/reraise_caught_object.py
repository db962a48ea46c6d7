# raise e of a caught error re-raises it: kind leaf_inplace, line of the in-place op
x = torch.ones(3, requires_grad=True)
def step():
    x.mul_(2)
try:
    step()
except RuntimeError as e:
    print("failed:", e)
    err = e
print("after")
raise err
