# opt.state is PyTorch's defaultdict(dict): it prints as one, and reading a missing parameter makes an empty entry
w = torch.tensor([0.5, 1.5], requires_grad=True)
v = torch.tensor([2.0], requires_grad=True)
opt = torch.optim.RMSprop([w, v], lr=0.01, momentum=0.9)
(w.sum() ** 2).backward()
opt.step()
print(opt.state)
print(len(opt.state), opt.state[v], len(opt.state))
print(list(opt.state.keys())[0] is w)
for k, val in opt.state[w].items():
    print(k, val)
