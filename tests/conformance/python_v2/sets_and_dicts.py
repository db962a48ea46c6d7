# set / frozenset displays, comprehensions and methods; dict methods
s = {1, 2, 3}
s.add(4)
s.discard(1)
f = frozenset([2, 3])
print(sorted(s), f <= s, s & {3, 4, 9}, {i % 3 for i in range(7)}, len(set()))
d = {"w": 1.0, "b": 2.0}
d.update({"c": 3.0})
print(d.get("w"), d.get("zz", 0), list(d.items()), d.pop("b"), d.setdefault("e", 5.0), sorted(d))
print(d.popitem(), d)
