# errors of plain Python operations are caught by their own classes, with Python's messages
d = {"a": 1}
try:
    d["b"]
except KeyError as e:
    print("KeyError", e, e.args)
try:
    [1, 2, 3][5]
except IndexError as e:
    print("IndexError", e)
try:
    1 / 0
except ArithmeticError as e:
    print("ArithmeticError", e)
try:
    int("x")
except ValueError as e:
    print("ValueError", e)
try:
    len(5)
except TypeError as e:
    print("TypeError", e)
try:
    undefined_name + 1
except NameError as e:
    print("NameError", e)
try:
    assert 1 == 2, "one is not two"
except AssertionError as e:
    print("AssertionError", e, e.args)
try:
    assert False
except AssertionError as e:
    print("bare assert", e, e.args)
try:
    raise NotImplementedError
except NotImplementedError as e:
    print("NotImplementedError", e, e.args)
