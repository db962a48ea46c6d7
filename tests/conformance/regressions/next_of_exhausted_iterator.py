# fuzz finding (test_fuzz_share mutated #139): next() of an exhausted iterator was an internal error;
# Python's StopIteration reaches the top level in PyTorch (kind runtime, its line)
t = torch.tensor([3.0, -1.0])
it = iter(t)
print(next(it), next(iter([]), 'empty'))
print(next(it))
print(next(it))
