# a while loop building a graph, with break and an else clause on for
x = torch.tensor(1.0, requires_grad=True)
y = x
n = 0
while True:
    y = y * 1.5
    n += 1
    if n >= 3:
        break
for i in range(2):
    y = y + i
else:
    y = y * 2
print(n, y)
