# new losses' bad inputs: caught with PyTorch's class and message
import torch.nn as nn
import torch.nn.functional as F
x = torch.randn(3, 4, requires_grad=True)
for f in [lambda: F.multi_margin_loss(x, torch.tensor([0.0, 1.0, 2.0])),
          lambda: F.multilabel_margin_loss(x, torch.zeros(3, 4)),
          lambda: F.multi_margin_loss(x.long(), torch.tensor([0, 1, 2])),
          lambda: F.pairwise_distance(x, torch.randn(3, 5)),
          lambda: F.cosine_similarity(x, torch.randn(2, 4)),
          lambda: F.hinge_embedding_loss(x, torch.ones(3, 5)),
          lambda: F.poisson_nll_loss(x, torch.ones(3, 5)),
          lambda: F.multilabel_soft_margin_loss(x, torch.ones(3, 5)),
          lambda: F.margin_ranking_loss(x, x, torch.ones(3, 5)),
          lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2))]:
    try:
        f()
        print("ok")
    except NotImplementedError as e:
        print("NotImplementedError", e)
    except (RuntimeError, ValueError, TypeError) as e:
        print(e)
loss = F.multi_margin_loss(x, torch.tensor([0, 1, 2]))
