# a non-tensor in backward's inputs is PyTorch's runtime error "all inputs have to be Tensors or GradientEdges"
# (checked per input in order: the non-leaf before it already retains its grad)
a = torch.rand(3, requires_grad=True)
h = a * 2
y = (h * 3).sum()
y.backward(inputs=[h, None])
