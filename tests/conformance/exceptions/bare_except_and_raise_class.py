# a bare except catches everything PyTorch raises; raise of a class makes an instance; a raise with no error
try:
    torch.zeros(2, 2).view(3)
except:
    print("bare except")
try:
    raise StopIteration
except StopIteration as e:
    print("StopIteration", e.args)
try:
    raise
except RuntimeError as e:
    print(e)
