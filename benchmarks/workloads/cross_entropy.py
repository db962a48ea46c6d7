# cross_entropy on 4096 x 1000 logits + backward: fused numerics (log-softmax, NLL) on 4M elements
logits = (torch.linspace(-40.0, 40.0, 4096 * 1000).reshape(4096, 1000).sin() * 4.0).requires_grad_()
labels = torch.arange(4096) % 1000
loss = F.cross_entropy(logits, labels)
loss.backward()
