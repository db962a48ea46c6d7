# gradcli: --set "w=[[1, 2], [3, 4]]" --requires-grad w --set b=0.5 --set "k=torch.tensor(3)"
# --set numbers/lists are float tensors; an expression keeps its own dtype
loss = (w * k + b).sum()
