# a factory's requires_grad must be a bool: requires_grad=1 is PyTorch's TypeError (fuzz, issue 20); requires_grad_(1) too
import torch
x = torch.zeros(2)
for f in [lambda: torch.tensor([1.], requires_grad=1), lambda: torch.zeros(2, requires_grad=1),
          lambda: torch.ones(2, requires_grad=0), lambda: torch.full((2,), 1., requires_grad=1),
          lambda: torch.zeros_like(x, requires_grad=1), lambda: torch.full_like(x, 2., requires_grad=None),
          lambda: torch.empty(3, requires_grad=1.0), lambda: x.requires_grad_(1)]:
    try:
        print(f().requires_grad)
    except TypeError as e:
        print(e)
y = torch.tensor([1.0, 2.0], requires_grad=1)
