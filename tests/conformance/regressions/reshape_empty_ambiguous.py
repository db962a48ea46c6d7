# reshape/view of a 0-element tensor with -1 beside a 0 is PyTorch's runtime error 'cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any value and is ambiguous' (c10's infer_size), not the shape error of a non-empty tensor (generator finding, seed 2026120283)
x = torch.ones(0, 3, requires_grad=True)
print(x.reshape(3, -1).shape, x.view(-1).shape, x.reshape(0, 3, 1).shape)
y = torch.ones(3)
try:
    y.reshape(0, -1)
except RuntimeError as e:
    print(e)
try:
    x.view(2, 0, -1)
except RuntimeError as e:
    print(e)
z = x.reshape(0, -1)
