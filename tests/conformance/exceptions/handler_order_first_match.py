# the first matching handler runs; an error in no handler's class passes through to the outer try
x = torch.ones(2, requires_grad=True)
try:
    try:
        x.view(-1).zero_()
    except TypeError:
        print("not a TypeError")
    except RuntimeError as e:
        print("inner RuntimeError:", e)
        raise KeyError("k")
except KeyError as e:
    print("outer", e)
except Exception:
    print("not reached")
