# @staticmethod, @classmethod, @property and class attributes
class Scaler:
    factor = 3.0
    def __init__(self, x):
        self.x = x
    @staticmethod
    def double(t):
        return t * 2
    @classmethod
    def make(cls, v):
        return cls(torch.tensor(v))
    @property
    def tripled(self):
        return self.x * self.factor
s = Scaler.make(2.0)
print(Scaler.double(torch.ones(2)), s.tripled, Scaler.factor, s.factor)
t = s.tripled
