# nn.init functions in place under no_grad, each after manual_seed: PyTorch's values
import torch.nn as nn
w = torch.empty(3, 4)
for name, fn in [("uniform", lambda t: nn.init.uniform_(t, -0.5, 0.5)), ("normal", lambda t: nn.init.normal_(t, 0.0, 0.1)),
                 ("xavier_u", nn.init.xavier_uniform_), ("xavier_n", nn.init.xavier_normal_),
                 ("kaiming_u", nn.init.kaiming_uniform_), ("kaiming_n", nn.init.kaiming_normal_)]:
    torch.manual_seed(0)
    fn(w)
    print(name, w)
nn.init.constant_(w, 0.25)
print(w)
nn.init.ones_(w)
nn.init.zeros_(w)
print(w.sum())
