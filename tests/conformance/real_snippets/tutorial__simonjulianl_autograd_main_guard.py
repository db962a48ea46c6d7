# source: https://github.com/simonjulianl/Langevin_Machine_Learning/blob/61f1aff4a1cd26ec00e0b80b8a35980442a0f7ad/HNNwLJ20210507/src20210507/test/autograd.py (the whole script, under if __name__ == '__main__')
import torch

if __name__ == '__main__':

    x = torch.ones(2,2, requires_grad=True)
    print(x)

    y = x + 2
    print(y)

    z = y * y * 3
    out = z.mean()

    print(z, out)

    out.backward()
    print(x.grad)
