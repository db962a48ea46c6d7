# the loss wrappers of functional.py read target.size() then input.size(): a non-tensor is an AttributeError
x = torch.ones(3, requires_grad=True)
print(F.mse_loss(x, torch.zeros(3)))
y = F.l1_loss(x, None)
