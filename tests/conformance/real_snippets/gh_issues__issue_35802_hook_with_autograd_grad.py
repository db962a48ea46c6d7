# source: https://github.com/pytorch/pytorch/issues/35802 (Hook on input tensor not called when using autograd.grad())
import torch

# backward()
def hook_backward(grad):
    print("backward hook called using backward()")
input = torch.Tensor([2])
input.requires_grad = True
input.register_hook(hook_backward)
output = 5 * input

torch.autograd.backward(output)
print(f"backward() output: {input.grad}")

# grad()
def hook_grad(grad):
    print("backward hook called using grad()")
input = torch.Tensor([2])
input.requires_grad = True
input.register_hook(hook_grad)
output = 5 * input

grad = torch.autograd.grad(output, input)
print(f"grad() output: {grad}")
