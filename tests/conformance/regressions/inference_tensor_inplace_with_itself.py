# an inference tensor changed in place outside inference_mode with itself as the other input: no input brings
# autograd in, so there is no leaf check; the version bump fails (review finding: the overlap check ran
# autograd's leaf check first)
with torch.inference_mode():
    x = torch.ones(4, requires_grad=True)
x.add_(x)
