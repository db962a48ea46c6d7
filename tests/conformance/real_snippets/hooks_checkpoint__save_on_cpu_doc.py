# source: https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.graph.save_on_cpu (docstring in pytorch/pytorch torch/autograd/graph.py; REPL -> script; device="cuda" removed from the three randn calls)
a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
c = torch.randn(5, requires_grad=True)

def f(a, b, c):
    prod_1 = a * b           # a and b are saved on GPU
    with torch.autograd.graph.save_on_cpu():
        prod_2 = prod_1 * c  # prod_1 and c are saved on CPU
    y = prod_2 * a           # prod_2 and a are saved on GPU
    return y

y = f(a, b, c)
del a, b, c  # for illustration only
# the content of a, b, and prod_2 are still alive on GPU
# the content of prod_1 and c only live on CPU
y.sum().backward()  # all CPU tensors are moved back to GPU, for backward
# all intermediary tensors are released (deleted) after the call to backward
