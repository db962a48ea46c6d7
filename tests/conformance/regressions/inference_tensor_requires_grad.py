# requires_grad_(True) on an inference tensor outside inference_mode is PyTorch's runtime error (generator finding)
with torch.inference_mode():
    t2 = torch.empty((1,), dtype=torch.float64).fill_(2.0)
    t3 = torch.ones(2)
    t3.requires_grad_(True)
    t4 = torch.ones(2, requires_grad=True)
print(t3.requires_grad, t4.requires_grad)
t2.requires_grad_(False)
t2.requires_grad_(True)
