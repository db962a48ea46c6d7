# issue 21: `gradcli check` of a 50-parameter function (2 reruns per element: 100 runs of the file);
# its PyTorch side is torch/check_50.py (torch.autograd.gradcheck of the same function)
x = torch.linspace(-1.0, 1.0, 50, dtype=torch.float64, requires_grad=True)
y = torch.sin(x) * torch.exp(x * 0.5) + x * x
loss = (y * torch.tanh(y)).sum()
