# backward(inputs=) calls retain_grad() on each input first: retain_grad_no_grad before input_no_grad (generator finding)
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor(0.25, requires_grad=True)
with torch.no_grad():
    t = x * 2
y = (x * w).sum()
y.backward(inputs=[w, t])
