# clones and reads of a ZeroTensor .grad work; a second backward adds into it in place and fails
x = torch.tensor([-0.5, 2.0], requires_grad=True)
x.sgn().sum().backward()
print(x.grad.detach().clone().add_(1), x.grad.clone().zero_())
print(x.grad[0].item(), x.grad.sum(), x.grad * 2)
x.sgn().sum().backward()
