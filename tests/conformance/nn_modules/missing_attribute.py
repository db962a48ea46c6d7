# reading an attribute a module does not have: AttributeError (kind runtime) naming the class
import torch.nn as nn
m = nn.Linear(2, 2)
print(hasattr(m, "weight"), hasattr(m, "foo"))
m.foo
