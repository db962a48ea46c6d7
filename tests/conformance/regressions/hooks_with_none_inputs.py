# hooks called with None under autograd.grad and backward(inputs=...): captures and post-accumulate hooks
x = torch.tensor([1.0, 0.0], requires_grad=True)
x.register_hook(lambda g: print('xhook', g))
x.register_post_accumulate_grad_hook(lambda t: print('post', t.grad))
y = torch.tensor([2.0, 1.0], requires_grad=True)
g, = torch.autograd.grad(torch.norm(x, 0) + y.sum(), [y], allow_unused=True)
print(g)
g2, = torch.autograd.grad(torch.norm(x, 0) + y.sum(), [x], allow_unused=True)
print(g2)
a, b = (x * 1).unbind()
a.register_hook(lambda g: print('ahook', g))
b.backward(inputs=[x])
h = x[0] * 3
h.backward(inputs=[y])
