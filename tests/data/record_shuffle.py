"""Record how PyTorch's shuffling consumes the random stream: tests/data/data/shuffle_cases.json.

    python tests/data/record_shuffle.py

* ``randperm``: ``torch.randperm(n, generator=torch.Generator().manual_seed(seed))`` for sizes from 0 to
  60000, with the next ``randint(0, 2**30, (2,))`` of that generator (how many words randperm consumed);
* ``seed_draw``: ``torch.manual_seed(s); torch.empty((), dtype=torch.int64).random_()`` (RandomSampler's seed);
* ``loader``: after ``torch.manual_seed(s)``, every index order of a few passes of
  ``DataLoader(TensorDataset(arange(n)), batch_size, shuffle=True, drop_last)``, then ``torch.rand(3)``.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch).
"""

from __future__ import annotations

import json
from pathlib import Path

from gradcli import host

host.pin_torch()
import torch  # noqa: E402

host.require_torch_avx2()

OUT = Path(__file__).with_name("data") / "shuffle_cases.json"
SEEDS = [0, 1, 42, 2**32 + 7]
SIZES = [0, 1, 2, 3, 10, 100, 1000, 60000]
LOADERS = [(10, 4, False, 3), (10, 3, True, 2), (1, 1, False, 2), (257, 32, False, 2), (64, 64, True, 1)]


def main() -> None:
    doc: dict = {"torch": torch.__version__, "randperm": [], "seed_draw": [], "loader": []}
    for seed in SEEDS:
        for n in SIZES:
            g = torch.Generator().manual_seed(seed)
            perm = torch.randperm(n, generator=g).tolist()
            probe = torch.randint(0, 2**30, (2,), generator=g).tolist()
            doc["randperm"].append({"seed": seed, "n": n, "perm": perm if n <= 1000 else None,
                                    "head": perm[:20], "sum_sq": sum(i * v for i, v in enumerate(perm)),
                                    "probe": probe})
        torch.manual_seed(seed)
        doc["seed_draw"].append({"seed": seed, "draws": [int(torch.empty((), dtype=torch.int64).random_().item())
                                                          for _ in range(3)]})
    for seed in SEEDS[:2]:
        for n, bs, drop, passes in LOADERS:
            torch.manual_seed(seed)
            loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(n)), batch_size=bs,
                                                 shuffle=True, drop_last=drop)
            orders = [[b[0].tolist() for b in loader] for _ in range(passes)]
            doc["loader"].append({"seed": seed, "n": n, "batch_size": bs, "drop_last": drop, "passes": passes,
                                  "batches": orders, "after": torch.rand(3).tolist()})
    OUT.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
