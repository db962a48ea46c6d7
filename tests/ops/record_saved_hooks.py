"""Record PyTorch's saved-tensor hook calls for every recorded op case: tests/ops/data/saved_hooks_cases.json.

Needs PyTorch (2.13.0 CPU is the reference).  Run from the repository root, after the op recorders:

    python tests/ops/record_saved_hooks.py

The cases are those of tests/ops/data/ops_cases.json and ops_cases_elementwise.json (their code, inputs and
outputs); for each, :func:`saved_hooks_harness.run_hooked` logs which tensors PyTorch packs, in which order and
with which autograd identity, and which it unpacks during the backward.  ``test_saved_hooks_recorded.py``
replays the log against gradcli.  PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (gradcli.host.pin_torch).
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ops_harness import torch_error_kind
from saved_hooks_harness import run_hooked

SOURCES = [os.path.join(HERE, "data", n) for n in ("ops_cases.json", "ops_cases_elementwise.json",
                                                               "ops_cases_frequency.json")]
OUT = os.path.join(HERE, "data", "saved_hooks_cases.json")


def main() -> None:
    from gradcli import host

    host.pin_torch()
    import warnings

    import torch
    import torch.nn.functional as F
    host.require_torch_avx2()

    out = []
    for path in SOURCES:
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        for c in cases:
            torch.manual_seed(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exp = run_hooked(c, torch, F, torch_error_kind)
            out.append({"id": c["id"], "expect": exp})
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=0, sort_keys=False)
        f.write("\n")
    print(f"recorded {len(out)} cases with torch {torch.__version__} -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
