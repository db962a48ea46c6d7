# inside inference_mode, enable_grad/set_grad_enabled(True) report grad enabled but record nothing (generator finding)
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        y = x * 2
        print(torch.is_grad_enabled(), y.requires_grad)
        with torch.no_grad():
            print(torch.is_grad_enabled())
    with torch.set_grad_enabled(True):
        z = x.exp2()
        print(torch.is_grad_enabled(), z.requires_grad)
    print(torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode():
        print("nested", torch.is_grad_enabled())
    print(torch.is_grad_enabled())
w = x * 3
print(w.requires_grad, torch.is_grad_enabled())
