# gradcli: --repeat 0
# torch.device, torch.cuda.is_available, .cpu(), .to(device), device=; CUDA fails as PyTorch's CPU build
d = torch.device('cpu')
print(d, d.type, d.index, d == torch.device('cpu'), d == 'cpu', [d])
g = torch.device('cuda')
print(g, g.type, g.index, [g, torch.device('cuda', 1), torch.device('cuda:0'), torch.device('cpu', 0)])
print(torch.cuda.is_available(), torch.cuda.device_count())
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
x = torch.ones(2, requires_grad=True)
print(x.cpu() is x, x.to('cpu') is x, x.to(device) is x, x.device == device, x.device)
print(x.to(device, torch.float64), x.to(device='cpu', dtype=torch.float64).grad_fn)
print(torch.ones(2, device=device), torch.tensor([1.], device='cpu'), torch.zeros(2, device=d))
h = x * 2
print(h.cpu() is h, x.is_cuda)
for f in (lambda: x.cuda(), lambda: x.to('cuda'), lambda: x.to(torch.device('cuda')), lambda: torch.ones(2, device='cuda'), lambda: torch.zeros(2).to("cuda:0"), lambda: torch.device('gpu'), lambda: torch.device(3)):
    try:
        f()
    except AssertionError as e:
        print("AssertionError", e)
    except RuntimeError as e:
        print("RuntimeError", e)
