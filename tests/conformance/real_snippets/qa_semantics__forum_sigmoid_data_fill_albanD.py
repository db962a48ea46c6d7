# source: https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1 (copy of the forum thread "The Principle of Autograd", dreamyun and albanD, Oct 2018: the question's code, then the answer's corrected approach; import torch added)
import torch

a = torch.tensor([1, 2, 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
c.fill_(6)
out.sum().backward()
print(a.grad)

a = torch.tensor([1, 2, 3.], requires_grad=True)
out = a.sigmoid()
out_grad = torch.tensor([6.0, 6.0, 6.0])
out.backward(out_grad)
print(a.grad)
