# layer_norm's bad arguments: a shape that does not match the input, weight of another shape, an int
# normalized_shape for F.layer_norm (TypeError), mixed dtypes
try:
    F.layer_norm(torch.ones(2, 4), (3,))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.layer_norm(torch.ones(2, 4), (4,), torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.layer_norm(torch.ones(2, 4), 4)
except TypeError as e:
    print("TypeError:", e)
y = F.layer_norm(torch.ones(2, 4, dtype=torch.float64), (4,), torch.ones(4))
