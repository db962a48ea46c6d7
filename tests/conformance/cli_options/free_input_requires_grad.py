# gradcli: --requires-grad x --retain-grad y
# the design card's y = x*2; z = y*3: x is read but never bound, so --requires-grad x binds it first as torch.tensor(1.0)
y = x*2; z = y*3
