# abs/absolute/softsign/hardtanh/relu6 of an inference tensor that requires grad, outside inference_mode with grad on, fail in PyTorch's out= kernels; an integer or bool copy of one records no history
with torch.inference_mode():
    X = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    Z = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
print(X.bool(), X.long(), X.double().requires_grad, X.int().is_leaf, X.to(torch.int64).grad_fn)
print(X.std(0), X.sum(), X.norm(), X.clamp(0, 1), F.l1_loss(X, Z), torch.abs(Z), F.hardtanh(Z))
with torch.no_grad():
    print(X.abs(), F.relu6(X))
with torch.inference_mode():
    print(abs(X), F.softsign(X))
