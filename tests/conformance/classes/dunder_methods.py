# __len__, __getitem__, __call__, __repr__, __contains__ of a file's class reached by len(), [], (), print, in
class Bag:
    def __init__(self, items):
        self.items = items
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i] * 2
    def __call__(self, x):
        return x + len(self)
    def __contains__(self, v):
        return v in self.items
    def __repr__(self):
        return f"Bag({len(self.items)} items)"
b = Bag([torch.tensor(1.0), torch.tensor(2.0)])
print(len(b), b[1], b(torch.tensor(0.5)), torch.tensor(9.0) in b, 3 in [1, 2])
print(b, [b])
first = b[0]
