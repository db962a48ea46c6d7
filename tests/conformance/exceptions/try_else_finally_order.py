# try/except/else/finally run in Python's order; return, break and continue pass through finally
def f(v):
    try:
        if v == 0:
            return "zero"
        r = 10 / v
    except ZeroDivisionError:
        return "never"
    else:
        print("else", r)
    finally:
        print("finally", v)
    return "end"
print(f(0), f(4))
for i in range(4):
    try:
        if i == 1:
            continue
        if i == 3:
            break
        print("body", i)
    finally:
        print("fin", i)
def g():
    try:
        return 1
    finally:
        return 2
print(g())
x = torch.ones(2, requires_grad=True)
try:
    z = (x * 2).sum()
except RuntimeError:
    print("no")
else:
    z.backward()
print(x.grad)
