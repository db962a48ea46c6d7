# source: https://github.com/wkdalswns0427/pytorch_practice_classifier/blob/1c11c506baf47032cb5befa4179af3b4ba8c58d8/practice/xor.py (the whole script: XOR with Linear + Sigmoid in a Sequential, BCELoss, SGD lr=1, 10001 steps; shrunk to 1001 steps because the 10001 take 10-12 s in PyTorch on this host)
import torch

X = torch.FloatTensor([[0, 0], [0, 1], [1, 0], [1, 1]])
Y = torch.FloatTensor([[0], [1], [1], [0]])
# nn layers
linear = torch.nn.Linear(2, 1, bias=True)
sigmoid = torch.nn.Sigmoid()
model = torch.nn.Sequential(linear, sigmoid)
# define cost/loss & optimizer

criterion = torch.nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1)
for step in range(1001):
    optimizer.zero_grad()
    hypothesis = model(X)
    # cost/loss function
    cost = criterion(hypothesis, Y)
    cost.backward()
    optimizer.step()
    if step % 100 == 0:
        print(step, cost.item())
