# gradcli: --no-grad --backward w2
# --no-grad wraps the body only; the backward gradcli runs afterwards is outside it
w = torch.tensor([1.0, 2.0], requires_grad=True)
w2 = w * 3
print(w2.requires_grad, torch.is_grad_enabled())
