# gradcli: --repeat 0
# str(e) of index, type, name and assertion errors is PyTorch's (Python's, for plain Python operations)
x = torch.ones(2, 3, requires_grad=True)
def report(f):
    try:
        f()
    except IndexError as e:
        print("IndexError:", e)
    except TypeError as e:
        print("TypeError:", e)
    except NameError as e:
        print("NameError:", e)
    except AssertionError as e:
        print("AssertionError:", e)
report(lambda: x[5])
report(lambda: x[0, 7])
report(lambda: x.sum(dim=2))
report(lambda: x.transpose(0, 3))
report(lambda: x.unsqueeze(4))
report(lambda: torch.cat([x, x], dim=2))
report(lambda: x.softmax(dim=-3))
report(lambda: [1, 2][2])
report(lambda: (1, 2)[-3])
def f(a, b):
    return a
report(lambda: f(1))
report(lambda: f(1, 2, 3))
report(lambda: f(1, c=2))
report(lambda: len(3))
report(lambda: undefined_thing)
def g():
    v = w_later
    w_later = 1
report(g)
def check(t):
    assert t.shape == (3,), f"expected 3 elements, got {t.shape}"
report(lambda: check(x))
