# allow_mutation_on_saved_tensors: saved inputs and outputs changed in place (op, index, .data) keep their saved values
torch.manual_seed(0)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    a = torch.randn(2, 3, requires_grad=True)
    b = a * 2
    c = b.exp()
    d = b * b
    e = (c + d).sum()
    b.mul_(3)
    c[0, 0] = 7.0
    print(d.grad_fn._saved_self is b)
    e.backward()
    print(a.grad)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.clone()
    z = (y ** 3).sum()
    print(z.grad_fn.next_functions[0][0]._saved_self is y)
    y.data.fill_(10.0)
    z.backward()
    print(x.grad)
    try:
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
    except RuntimeError as err:
        print(err)
f = (a * 3).sum()
f.backward()
