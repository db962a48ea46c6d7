# optimizers over model.parameters() and per-module param groups, state keyed by Parameter, named_parameters
torch.manual_seed(0)
nn = torch.nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)
    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))
model = Net()
x = torch.randn(8, 3)
y = torch.randn(8, 1)
opt = torch.optim.Adam([{"params": model.fc1.parameters()}, {"params": model.fc2.parameters(), "lr": 0.01}], lr=0.1)
loss_fn = nn.MSELoss()
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(model.fc2.weight)
print(opt.state[model.fc1.bias]["exp_avg"])
print(len(opt.state), [len(g["params"]) for g in opt.param_groups])
sd = opt.state_dict()
print(list(sd["state"].keys()), sd["param_groups"][1]["params"])
opt2 = torch.optim.SGD(model.named_parameters(), lr=0.1)
print(opt2.param_groups[0]["param_names"])
print(opt2.state_dict()["param_groups"][0]["param_names"])
