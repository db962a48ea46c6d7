# .data of an inference tensor is an inference tensor (outside the mode too), .data of a normal tensor inside
# inference_mode is not; saving the inference one for backward (fmin saves both inputs) raises at that line
import torch
x = torch.ones(2)
with torch.inference_mode():
    print(x.data.is_inference(), x.detach().is_inference())
    i = torch.cat((x, x))
d = i.data
print(d.is_inference(), i.detach().is_inference(), d.requires_grad)
w = torch.rand((), requires_grad=True)
m = torch.mul(d, 2.0) + w
print(m.requires_grad)
t = torch.fmin(d, w)
