# Define-by-run: the graph is whatever the code did, so a loop builds a different graph each time (`gradcli check` reports a mismatch: x = 0.5 sits where the branch changes).
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(4):
    if y.item() < 2:
        y = y * 2      # taken while y < 2
    else:
        y = y + 1      # taken afterwards
y.backward()
print(y, x.grad)       # y = ((0.5*2)*2)+1+1 -> dy/dx = 4
print(y.grad_fn, y.grad_fn.next_functions[0][0])
