# an error raised inside a hook during the default backward has the hook's line
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g + undefined_name)
loss = y.sum()
