# an uncaught raise of TypeError ends the run with kind type; raise X from Y
def f(v):
    if not isinstance(v, int):
        try:
            int(v)
        except ValueError as e:
            raise TypeError("need an int") from e
    return v
print(f(3))
f("three")
