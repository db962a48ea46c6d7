# str.format with plain fields and specs, %-formatting, f-strings with specs
loss = torch.tensor(0.123456)
epoch = 3
print("epoch {} loss {:.4f}".format(epoch, loss.item()))
print("{0}/{1} {name:>6}|{x:+.2e}".format(1, 10, name="ab", x=12345.678))
print("%d: %.3f %s %5.1f%%" % (epoch, loss.item(), "done", 99.5))
print("%(a)s-%(b)03d" % {"a": "x", "b": 7})
print(f"{epoch:>4d} {loss.item():.3f} {loss:.2f} {'txt'!r:>8}")
print("{:{w}.{p}f}".format(3.14159, w=8, p=2))
