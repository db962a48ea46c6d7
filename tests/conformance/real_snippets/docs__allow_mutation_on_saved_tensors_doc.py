# source: https://docs.pytorch.org/docs/stable/autograd.html#torch.autograd.graph.allow_mutation_on_saved_tensors (docstring in pytorch/pytorch torch/autograd/graph.py; REPL -> script, the displayed value of b.sin_() -> print)
import torch
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    # forward
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    print(b.sin_())
    # backward
    out.sum().backward()
