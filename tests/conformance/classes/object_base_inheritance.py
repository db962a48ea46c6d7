# class A(object), a subclass of the file's own class, super().method() and super().__init__(args)
class Base(object):
    def __init__(self, scale):
        self.scale = scale
    def apply(self, x):
        return x * self.scale
class Shifted(Base):
    def __init__(self, scale, shift):
        super().__init__(scale)
        self.shift = shift
    def apply(self, x):
        return super().apply(x) + self.shift
s = Shifted(2.0, 1.0)
x = torch.tensor([1.0, -1.0], requires_grad=True)
y = s.apply(x)
print(y, isinstance(s, Base), isinstance(s, Shifted), s.scale)
z = y.sum()
