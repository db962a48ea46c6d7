# an inner size of 1: PyTorch's gemm writes each product (a -0.0 stays -0.0) for m, n > 1 and in addmm; gemv/bmm
# shapes give +0.0 (numpy's matmul always +0.0; generator finding)
a = -torch.ones(3, 1)
z = torch.zeros(1, 3)
print(a @ z, torch.mm(a, z), -torch.ones(1, 1) @ z, a @ torch.zeros(1, 1), torch.zeros(2, 3, 1).neg() @ z)
print(torch.addmm(-torch.zeros(3, 3), a, z), torch.addmm(torch.zeros(3), a, z), torch.addmm(-torch.zeros(1, 3), -torch.ones(1, 1), z))
print(F.linear(a, torch.zeros(4, 1)), F.linear(a, torch.zeros(4, 1), torch.zeros(4)), torch.mv(a, torch.zeros(1)))
print(torch.bmm(-torch.ones(2, 3, 1), torch.zeros(2, 1, 3)), torch.full((3, 1), -1.5) @ torch.tensor([[-1.0, 0.0, -0.25]]))
w = torch.tensor([[0.0, 2.0]], requires_grad=True)
y = torch.tensor([[-1.0], [0.5]], requires_grad=True)
r = y @ w
r.backward(torch.tensor([[-0.0, 1.0], [0.0, -0.0]]))
print(w.grad, y.grad)
