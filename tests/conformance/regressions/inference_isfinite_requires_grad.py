# isinf/isfinite of an inference tensor that requires grad, outside inference_mode with grad on, fail in PyTorch's abs(out=...)
with torch.inference_mode():
    x = torch.ones((), requires_grad=True)
    y = torch.ones(3, requires_grad=True)
    z = torch.ones(3)
    print(torch.isfinite(y), torch.isinf(x))
print(torch.isnan(y), torch.isfinite(z), torch.isinf(z))
with torch.no_grad():
    print(torch.isinf(y))
print(torch.isinf(x))
