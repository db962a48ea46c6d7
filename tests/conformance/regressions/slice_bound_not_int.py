# a slice bound that is not an int (a tuple) is the TypeError of Python's slicing, as PyTorch raises it (fuzz finding, seeded mix 0)
b = torch.zeros(4)
try:
    v = b[(2, 3):3]
except TypeError as e:
    print("TypeError:", e)
v = b[::(1, 2)]
