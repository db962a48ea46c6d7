# source: https://github.com/gongchang/ML_DL_Stats_Tutorials (notebook on the gradient argument of backward: its code cells In [2]-[16] in order)
import torch

x = torch.ones(2, 2, requires_grad=True)
print(x)

y = x + 2
print(y)

print(y.grad_fn)

z = y * y * 3
out = z.mean()

print(z, out)

print(out)

out.backward() # # this is the same as out.backward(tensor(1.))

#print gradients d(out)/dx = (1/4) * 3* (2 *x  + 4) = (1/4) * 3* (2 *1 + 4)  = 4.5
print(x.grad)

x = torch.tensor([2., 5.], requires_grad=True)
print('x:', x)
y = 2*x**2 
print('y:', y)
gradient_value = [1.0, 0.1]
y.backward(torch.tensor(gradient_value)) 
print('x.grad:', x.grad)
