# cross_entropy on 4096 x 1000 logits + backward: fused numerics (log-softmax, NLL) on 4M elements
# (logits from arange, not linspace/randn, so that making them costs little next to the loss)
logits = ((torch.arange(4096 * 1000) % 997).float() * 0.01 - 5.0).reshape(4096, 1000).requires_grad_()
labels = torch.arange(4096) % 1000
loss = F.cross_entropy(logits, labels)
loss.backward()
