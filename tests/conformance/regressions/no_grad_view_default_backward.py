# gradcli: --no-grad
# the default backward of a no-grad view of a tensor that requires grad: non_scalar_backward (generator finding)
x1 = torch.tensor([0.25, 1.0, -2.0], requires_grad=True)
t7 = torch.t(x1)
