# disable_saved_tensors_hooks: entering save_on_cpu inside it raises its message
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    with torch.autograd.graph.save_on_cpu():
        y = a.sin()
