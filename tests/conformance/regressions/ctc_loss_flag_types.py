# F.ctc_loss with a blank that is not an int or a zero_infinity that is not a bool: PyTorch's parser TypeError, verbatim (fuzz, issue 20)
import torch
import torch.nn.functional as F
torch.manual_seed(0)
lp = torch.randn(8, 3, 5).log_softmax(2)
t = torch.tensor([[1, 1, 2], [3, 4, 0], [4, 2, 1]])
for args in [(lp, t, [8, 7, 6], [3, 2, 3], torch.int8), (lp, t, torch.tensor([8, 7, 6]), torch.tensor([3, 2, 3]), 0, 'mean', 1),
             (lp, t, (8, 7, 6), [3, 2.0, 3], 1.0), (lp, t, [8, 7, 6], [3, 2, 3], True), (lp, t, [8, 7, 6], [3, 2, 3], None),
             (lp, t, torch.tensor([8, 7, 6]), torch.tensor([3, 2, 3]), torch.tensor(1))]:
    try:
        print(F.ctc_loss(*args))
    except TypeError as e:
        print(e)
