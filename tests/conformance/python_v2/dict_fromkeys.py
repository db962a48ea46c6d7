# dict.fromkeys (real scripts build dicts of names with it): keys from a list, a range, a string, repeated keys, a shared default value, a tensor stored into one
d = dict.fromkeys(["a", "b"], 0)
print(d, dict.fromkeys(range(3)), dict.fromkeys("xy", [1]))
f = dict.fromkeys
print(f([1, 1, 2]))
x = torch.ones(2, requires_grad=True)
grads = dict.fromkeys(["x"])
grads["x"] = (x * 2).sum()
y = grads["x"]
