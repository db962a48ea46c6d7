# gather saves its input: an inference input with a normal index fails (cannot be saved for backward)
with torch.inference_mode():
    X = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
y = X.gather(0, torch.tensor([[0, 1]]))
