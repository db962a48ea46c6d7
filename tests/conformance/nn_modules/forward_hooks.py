# forward pre-hooks replace the input, forward hooks see (module, args, output) and may replace it; remove()
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
def pre(module, args):
    print("pre", module is lin, len(args))
    return (args[0] * 2,)
def post(module, args, output):
    print("post", output.shape)
    return output + 1
h1 = lin.register_forward_pre_hook(pre)
h2 = lin.register_forward_hook(post)
x = torch.ones(1, 2)
y = lin(x)
print(y)
h1.remove()
h2.remove()
z = lin(x)
print(z)
total = (y + z).sum()
