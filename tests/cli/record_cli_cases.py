"""Re-record tests/cli/data/*.expected.json from real PyTorch (run by hand, needs torch 2.13).

    python tests/cli/record_cli_cases.py [PATH/TO/torch_run.py]

Each case's options are in its first line (``# gradcli: ...``), which the
oracle reads itself.  The expectations are what PyTorch does, never gradcli's
own output; the tests compare gradcli with them.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_ORACLE = HERE.parents[2] / "shared" / "conformance" / "tools" / "torch_run.py"


def torch_graph(case: Path) -> dict:
    """The autograd graph PyTorch builds for a ``graph_*.py`` case, numbered breadth-first from the
    roots (named tensors with a grad_fn that no other named tensor's graph reaches), as gradcli's
    ``graph --format json`` numbers it: [{"name", "tensor", "next": [[id|null, index]]}]."""
    from gradcli import host

    host.pin_torch()
    import torch

    host.require_torch_avx2()

    g: dict = {"torch": torch, "F": torch.nn.functional}
    exec(compile(case.read_text(encoding="utf-8"), str(case), "exec"), g)  # test-data recording only
    named = [(k, v) for k, v in g.items() if isinstance(v, torch.Tensor)]
    fns = []
    for _, t in named:
        if t.grad_fn is not None and all(t.grad_fn is not f for f in fns):
            fns.append(t.grad_fn)
    reached, stack, seen = set(), list(fns), set()
    while stack:
        f = stack.pop()
        for c, _ in f.next_functions:
            if c is not None:
                reached.add(id(c))
                if id(c) not in seen:
                    seen.add(id(c))
                    stack.append(c)
    roots = [f for f in fns if id(f) not in reached]
    order, ids, queue = [], {}, list(roots)
    for f in roots:
        ids[id(f)] = len(order)
        order.append(f)
    while queue:
        f = queue.pop(0)
        for c, _ in f.next_functions:
            if c is not None and id(c) not in ids:
                ids[id(c)] = len(order)
                order.append(c)
                queue.append(c)

    def tensor_name(f):
        if type(f).__name__ == "AccumulateGrad":
            return next((k for k, v in named if v is f.variable), None)
        return next((k for k, v in named if v.grad_fn is f), None)

    return {"roots": [ids[id(f)] for f in roots],
            "nodes": [{"name": type(f).__name__, "tensor": tensor_name(f),
                       "next": [[None if c is None else ids[id(c)], int(i)] for c, i in f.next_functions]}
                      for f in order]}


def main() -> int:
    oracle = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ORACLE
    bad = 0
    for case in sorted((HERE / "data").glob("*.py")):
        out = subprocess.run([sys.executable, str(oracle), "run", case.name, "--json"], cwd=case.parent,
                             env=dict(os.environ, ATEN_CPU_CAPABILITY="avx2", MKL_ENABLE_INSTRUCTIONS="AVX2"), capture_output=True, text=True)
        if out.returncode not in (0, 1) or not out.stdout.strip():
            print(f"NOT RECORDED {case.name}: exit {out.returncode}: {out.stderr.strip()[-300:]}")
            bad += 1
            continue
        case.with_suffix("").with_suffix(".expected.json").write_text(out.stdout, encoding="utf-8")
        print(f"recorded {case.name}")
        if case.name.startswith("graph_"):
            import json

            graph = torch_graph(case)
            case.with_suffix("").with_suffix(".graph.json").write_text(json.dumps(graph, indent=1) + "\n")
            print(f"recorded the graph of {case.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
