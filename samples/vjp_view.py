# backward(gradient=v) on a vector computes v^T J; see J, v and v^T J: gradcli run samples/vjp_view.py --explain-vjp
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
W = torch.tensor([[1.0, 0.5, 0.0], [2.0, -1.0, 1.0]])
y = W @ (x * x)                # 2 elements: J = dy/dx is 2 x 3, J[i, j] = 2 W[i, j] x[j]
v = torch.tensor([1.0, -1.0])
y.backward(gradient=v)
print(x.grad)                  # v^T J = [-2., 6., -6.]
