# source: https://github.com/pytorch/pytorch/pull/79767 ((WIP) Fix retain grad behavior on in-place: the example in the description)
a = torch.tensor([1.], requires_grad=True).clone()

grad1 = [None]
grad2 = [None]

def hook1(grad):
    grad1[0] = grad

def hook2(grad):
    grad2[0] = grad

a.register_hook(hook1)
a.retain_grad()

a.mul_(2)

b = a.clone()
b.register_hook(hook2)

out = (b + 1).sum()
out.backward()

print(grad1)  # hook before 2.0
print(grad2)  # hook after  1.0
print(a.grad) # retain_grad 1.0
