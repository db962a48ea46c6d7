# source: https://stackoverflow.com/questions/68778401/meaning-of-grad-outputs-in-pytorchs-torch-autograd-grad (the question's REPL session -> script with the import it assumes, displayed values -> print; the last call raises "Mismatch in shape")
import torch

x = torch.tensor([1.,2.,3.,4.], requires_grad=True)
y = torch.outer(x, x)
print(y)
print(torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y)))
print(torch.autograd.grad(y, x, grad_outputs=torch.ones_like(x)))
