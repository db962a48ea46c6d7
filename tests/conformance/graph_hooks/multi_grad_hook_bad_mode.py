# gradcli: --repeat 0
# register_multi_grad_hook with an unknown mode: a ValueError, caught by its class
a = torch.tensor([1., 2.], requires_grad=True)
try:
    torch.autograd.graph.register_multi_grad_hook((a,), print, mode="sum")
except ValueError as e:
    print("caught", e)
