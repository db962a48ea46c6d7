"""Record which of gradcli's ``torch.X`` functions take PyTorch's ``out=`` keyword: tests/ops/data/out_names.json.

PyTorch's Python argument parser says so itself: a call with ``out=1.5`` fails with "argument 'out' ..." or an
"invalid combination" listing the signatures (with ``Tensor out = None``) when the binding has out=, and with
"unexpected keyword argument 'out'" when it has none.  Each name is called with a few argument shapes until the
parser gets past the positional arguments.  ``test_out_names.py`` checks ``gradcli.ops.out.OUT_OPS`` against it.

Needs PyTorch (2.13.0 CPU is the reference).  Run from the repository root:

    python tests/ops/record_out_names.py
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "out_names.json")


def takes_out(torch, fn) -> bool | None:
    t = torch.ones(2, 3)
    idx = torch.zeros(1, 1, dtype=torch.long)
    shapes = [(), (t,), ([t],), (t, t), (t, 0), ((2, 3),), (t, t, t), (t, 0, idx), (t, 0, idx, t), (2,),
              (t > 0, t, t), (t, t > 0, 1.0), (t, [0]), (t, 1), (2, 3), (t, t, 0.5), (t, 0, 1), (2, 3, 4),
              ((2, 3), 1.0), (t, 1.0), (t, t, t, t), (t, 0, idx[0], 1.0)]
    for args in shapes:
        try:
            fn(*args, out=1.5)
        except TypeError as e:
            msg = str(e)
            if "unexpected keyword argument 'out'" in msg:
                return False
            if "argument 'out'" in msg or "invalid combination" in msg and "Tensor out = None" in msg:
                return True
            if "invalid combination" in msg and "unrecognized keyword arguments" not in msg:
                return False
            continue
        except Exception:  # noqa: BLE001 - past the parser: out=1.5 was accepted as some argument
            return True
        return True
    return None


def main() -> None:
    import torch

    from gradcli.ops.registry import torch_functions

    names = sorted(torch_functions())
    result = {n: takes_out(torch, getattr(torch, n)) for n in names if hasattr(torch, n)}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "takes_out": result}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{sum(1 for v in result.values() if v)} of {len(result)} names take out=; undecided: "
          f"{[n for n, v in result.items() if v is None]}")


if __name__ == "__main__":
    main()
