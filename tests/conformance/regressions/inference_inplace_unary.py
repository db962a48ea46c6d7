# an inference tensor changed in place outside inference_mode: with only inference inputs PyTorch skips the leaf check, the kernel writes, then the version bump fails (generator finding)
with torch.inference_mode():
    x6 = torch.full((1, 1), 0.5, requires_grad=True)
    x7 = torch.full((1, 1), 0.5)
    y = torch.ones(1)
x6.exp_()
print(x6, x7)
