# Checkpointing trades compute for memory: a checkpointed block keeps none of its inner results for
# backward (only its input); backward runs the block again to get them.  See what each copy keeps:
#   gradcli graph samples/checkpoint.py --show-saved
import torch.utils.checkpoint


def block(t, label):
    print("running block for", label)
    return torch.tanh(t).exp() * t


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
plain = block(x, "plain")      # TanhBackward0, ExpBackward0, MulBackward0 keep their tensors
ckpt = torch.utils.checkpoint.checkpoint(block, x, "ckpt", use_reentrant=False)  # the same nodes keep nothing
print(torch.equal(plain, ckpt), ckpt.grad_fn)
loss = plain.sum() + 2 * ckpt.sum()
loss.backward(retain_graph=True)   # runs block again for ckpt (recomputation), prints a third time
print(x.grad)
