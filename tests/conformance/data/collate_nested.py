# default_collate recurses: dicts keep their keys, tuples become lists, lists stay lists, strings stay a tuple
samples = [
    {"x": torch.tensor([1.0, 2.0]), "label": 0, "meta": ("a", [1, 2])},
    {"x": torch.tensor([3.0, 4.0]), "label": 1, "meta": ("b", [3, 4])},
]
loader = torch.utils.data.DataLoader(samples, batch_size=2)
for batch in loader:
    print(list(batch.keys()))
    print(batch["x"])
    print(batch["label"])
    print(batch["meta"])
