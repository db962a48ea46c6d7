# RNN bad arguments: wrong input size, wrong hidden size, a 4-d input, dropout out of range, an unknown
# nonlinearity, a cell's input of the wrong width
import torch.nn as nn
rnn = nn.RNN(3, 4)
for bad in (torch.randn(5, 2, 2), torch.randn(1, 2, 3, 4)):
    try:
        rnn(bad)
    except (RuntimeError, ValueError) as e:
        print("error:", e)
try:
    rnn(torch.randn(5, 2, 3), torch.randn(1, 3, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LSTM(3, 4, dropout=1.5)
except ValueError as e:
    print("ValueError:", e)
try:
    nn.RNN(3, 4, nonlinearity='sigmoid')
except ValueError as e:
    print("ValueError:", e)
c = nn.GRUCell(3, 4)
y = c(torch.randn(2, 5))
