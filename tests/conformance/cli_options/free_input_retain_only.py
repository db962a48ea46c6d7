# gradcli: --retain-grad x
# a free name named only by --retain-grad is bound as torch.tensor(1.0), which does not require grad: retain_grad() fails
y = x * 2
