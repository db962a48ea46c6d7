# the name of an except ... as clause is deleted when the handler ends, as in Python
try:
    [][1]
except IndexError as e:
    print("in handler:", e)
print("after the handler")
print(e)
