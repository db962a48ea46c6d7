# gradcli: --backward loss --inputs a --retain-graph --repeat 2
# --inputs limits which leaves get .grad; --repeat with --retain-graph accumulates
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
loss = (a * b).sum()
