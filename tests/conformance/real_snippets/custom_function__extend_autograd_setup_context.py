# source: https://github.com/hoangkimthuc/custom_C_CUDA_ops/blob/main/extend_autograd.py (LinearFunction with setup_context, gradcheck, then a backward)
import torch
from torch.autograd import Function, gradcheck

class LinearFunction(Function):
    # Forward pass
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    # For saving intermediate for computing gradient in backward pass
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    # Backward pass
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


def linear(input, weight, bias=None):
    return LinearFunction.apply(input, weight, bias)

input = (torch.randn(20,20,dtype=torch.double,requires_grad=True), torch.randn(30,20,dtype=torch.double,requires_grad=True))
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)
output = linear(input[0],input[1])
loss = output.sum()
loss.backward()
print(input[0].grad)
