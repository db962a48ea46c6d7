# sorted, map, filter, any, all, enumerate, zip, reversed, iter/next over tensors and lists
t = torch.tensor([3.0, -1.0, 2.0])
vals = t.tolist()
print(sorted(vals), sorted(vals, reverse=True), sorted(vals, key=lambda v: abs(v)))
print(list(map(lambda v: v * 2, vals)), list(filter(lambda v: v > 0, vals)))
print(any(v < 0 for v in vals), all(v < 5 for v in vals), list(zip(range(3), reversed(vals))))
it = iter(t)
print(next(it), next(it), next(iter([]), "empty"))
print([i for i, v in enumerate(vals, 1) if v > 0], list(map(max, [1, 5], [4, 2])))
