"""Count the torch.X / Tensor.X / F.X names of public autograd code and write docs/OPS_FREQUENCY.md.

Input: docs/ops_frequency/snippets.tsv, one line per snippet (query number, corpus, source, names), and
docs/ops_frequency/queries.tsv (the searches that found them).  The names were transcribed from each
snippet by hand with the rules in OPS_FREQUENCY.md (the snippets themselves are third-party text and are
not copied here).  Run from the repository root, with PyTorch and gradcli installed:

    python docs/ops_frequency/count.py

It classifies each name with live PyTorch (a dotted torch.* name, an F.* function, or a ``.method`` that
torch.Tensor has), counts occurrences, cuts the list at 95% of all occurrences, and checks which of those
names gradcli's namespaces provide (``torch``/``F`` objects a file sees, and gradcli's Tensor class).
"""

from __future__ import annotations

import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "docs", "OPS_FREQUENCY.md")

#: names of the top 95% gradcli does not provide, and why (kept by hand)
NOT_DONE = {
    "torch.autograd.Variable": "legacy constructor: SPEC §2b's 'Python of real scripts', issue 17 (i17a)",
    "torch.FloatTensor": "legacy constructor: SPEC §2b's 'Python of real scripts', issue 17 (i17a)",
    "torch.from_numpy": "needs a numpy array, which a file cannot make (SPEC §2b: numpy is an unsupported import "
                        "whose hint says torch.tensor)",
    "torch.einsum": "ATen's einsum is a composite (permute, diagonal, sum and bmm chains chosen by the equation): "
                    "PyTorch's grad_fn names need that algorithm ported; 3 occurrences in 2 snippets",
}
#: kinds of names outside the op list
LEFT = {
    "nn": "a torch.nn module class: issue 17 (torch.nn), not an op",
    "optim": "a torch.optim optimizer: issue 17 (torch.optim), not an op",
    "not_tensor": "not a Tensor method (an nn.Module, optimizer or ctx method): outside the op list",
    "cuda": "CUDA: gradcli is CPU-only as its reference (SPEC §1); torch.device('cpu') and .to(dtype) exist",
}


def parse(path: str) -> list:
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            query, corpus, source, names = line.rstrip("\n").split("\t")
            counted = collections.Counter()
            for tok in names.split():
                name, _, k = tok.partition("*")
                counted[name] += int(k) if k else 1
            rows.append((int(query), corpus, source, counted))
    return rows


def normalise(name: str) -> str:
    """One spelling per name: torch.nn.functional.X -> F.X; torch.X aliases stay as written."""
    for prefix in ("torch.nn.functional.", "nn.functional.", "func."):
        if name.startswith(prefix):
            return "F." + name[len(prefix):]
    if name.startswith("nn."):
        return "torch." + name
    return name


def classify(name: str, torch) -> str:
    """'torch', 'F', 'tensor' (a Tensor method), 'nn', 'optim', 'dtype', 'autograd' or 'not_tensor'."""
    if name.startswith("F."):
        return "F"
    if name.startswith("."):
        return "tensor" if hasattr(torch.Tensor, name[1:]) else "not_tensor"
    if name.startswith("torch.nn.") and not name.startswith("torch.nn.utils"):
        return "nn"
    if name.startswith("torch.optim."):
        return "optim"
    if name.startswith(("torch.autograd", "torch.func", "torch.utils")):
        return "autograd"
    obj = torch
    for part in name.split(".")[1:]:
        obj = getattr(obj, part, None)
    if isinstance(obj, torch.dtype):
        return "dtype"
    return "torch"


def gradcli_has(name: str, ns, tensor_cls) -> bool:
    """Does a gradcli file reach ``name`` (its namespaces, or a public Tensor attribute)?"""
    if name.startswith("."):
        return name[1:] in tensor_cls._gradcli_public_names()
    obj = ns
    parts = name.split(".")
    if parts[0] == "F":
        obj = ns.nn.functional
    for part in parts[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return False
    return True


def main() -> None:
    from gradcli import host

    host.pin_torch()
    import torch

    from gradcli.api import torch_namespace
    from gradcli.autograd.tensor import Tensor, tensor_public_names

    Tensor._gradcli_public_names = staticmethod(tensor_public_names)  # type: ignore[attr-defined]
    rows = parse(os.path.join(HERE, "snippets.tsv"))
    counts: collections.Counter = collections.Counter()
    snippets_with: collections.Counter = collections.Counter()
    for _, _, _, c in rows:
        for name, k in c.items():
            n = normalise(name)
            counts[n] += k
            snippets_with[n] += 1
    total = sum(counts.values())
    ns = torch_namespace()
    lines = []
    cum = 0
    top = []
    for name, k in counts.most_common():
        in_top = cum < 0.95 * total
        cum += k
        kind = classify(name, torch)
        has = gradcli_has(name, ns, Tensor) if kind not in ("nn", "optim", "not_tensor") else None
        lines.append((name, k, snippets_with[name], cum / total, kind, has, in_top))
        if in_top:
            top.append((name, kind, has))
    corpora = collections.Counter(r[1] for r in rows)
    sources = len({r[2] for r in rows})
    with open(os.path.join(HERE, "queries.tsv"), encoding="utf-8") as f:
        queries = [ln.rstrip("\n").split("\t") for ln in f if ln.strip() and not ln.startswith("#")]
    out = []
    out.append(_HEADER.format(n=len(rows), sources=sources, q=len(queries), total=total, distinct=len(counts),
                              corpora=", ".join(f"{c} {k}" for c, k in sorted(corpora.items()))))
    missing = [(n, kind) for n, kind, has in top if has is False]
    out.append(f"Top 95%: {len(top)} names, of which {sum(1 for *_, h in top if h)} gradcli provides, "
               f"{len(missing)} it does not"
               + (f" ({', '.join(n for n, _ in missing)})" if missing else "")
               + f", and {sum(1 for *_, h in top if h is None)} outside the op list (nn modules, optimizers, "
               "methods of other objects).\n")
    out.append("| rank | name | count | snippets | cumulative | kind | gradcli |")
    out.append("|---:|---|---:|---:|---:|---|---|")
    for i, (name, k, s, c, kind, has, in_top) in enumerate(lines, 1):
        mark = "yes" if has else ("no" if has is False else "n/a: " + LEFT.get(kind, kind))
        cut = "" if in_top else " (below the 95% cut)"
        out.append(f"| {i} | `{name}` | {k} | {s} | {c:.1%} | {kind}{cut} | {mark} |")
    if missing:
        out.append("\n## Names of the top 95% gradcli does not provide\n")
        for n, _ in missing:
            out.append(f"- `{n}`: {NOT_DONE.get(n, 'not done yet')}")
    out.append("\n## The searches\n")
    out.append("| # | corpus | query |")
    out.append("|---:|---|---|")
    for q in queries:
        out.append(f"| {q[0]} | {q[1]} | {q[2]} |")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(rows)} snippets, {total} names ({len(counts)} distinct); top 95%: {len(top)} names; "
          f"gradcli lacks {len(missing)}: {missing} -> {os.path.relpath(OUT, ROOT)}")


_HEADER = """# Ops by frequency in public autograd code

Which `torch.X`, `Tensor.X` and `F.X` names real autograd code uses, counted over {n} public snippets
({sources} distinct sources; corpora: {corpora}) found by {q} searches of the project's `search` tool
(tutorials, docs, forum and Q&A pages, GitHub code).  {total} name occurrences, {distinct} distinct names.
Issue 18 (must have 5): gradcli implements every name of the top 95% by count that SPEC §2b covers.

## Method

1. **Searches** (listed at the end): autograd topics as people write them -- basic `backward`/`.grad`,
   `torch.autograd.grad` and higher derivatives, custom Functions, hooks, manual gradient descent,
   in-place errors, `detach`/`.data`, no_grad/inference_mode, losses and softmax from scratch, views,
   indexing, norms, Jacobians/Hessians, PINNs, gradient penalties, saliency, checkpointing, VAEs, STE,
   optimizers from scratch -- over the `code`, `pages` and `docs` corpora.
2. **Snippets**: every result that is PyTorch user code was kept (library internals, other frameworks,
   C/CUDA, generated fuzz programs, prose without code and exact duplicates of a kept file were skipped);
   `docs/ops_frequency/snippets.tsv` names each one's source (repository:path, or URL; `excerpt#R` for the
   code corpus's unnamed excerpts, R its rank in that search).
3. **Names**: from each snippet, by hand, every `torch.A[.B]` reference (dtypes and context managers
   included, module aliases resolved: `tc.sin` is `torch.sin`, `autograd.grad` imported from torch is
   `torch.autograd.grad`, `functorch.vmap` is `torch.func.vmap`), every `F.X` / `torch.nn.functional.X`
   call, and every method call `.X(` on an object (operators such as `+`, `@`, `**` are not names;
   attribute reads such as `.grad`, `.shape` are not calls).  `name*k` records k occurrences.
4. **Counting** (`docs/ops_frequency/count.py`, which wrote this file): occurrences per name; the kind of
   each name checked against live PyTorch 2.13 (a `.X` is a Tensor method when `torch.Tensor` has it);
   the top 95% is the names above the point where the running total reaches 95% of all occurrences;
   "gradcli" says whether a gradcli file reaches the name (its `torch`/`F` namespaces, or a public Tensor
   attribute).

The snippets are third-party material: only their sources and the counted names are kept here.

The names gradcli added for this list (issue 18), each with a case recorded from PyTorch 2.13 in
`tests/ops/record_ops_frequency.py` (replayed by `tests/ops/test_ops_recorded.py`) and, where a file shows it
best, a conformance case: the in-place forms of the elementwise ops as methods (`sin_`, `exp_`, `sigmoid_`,
`acos_`, `absolute_`, `atan2_`, `hypot_`, `lerp_`, `eq_` ... `ge_`, `cumsum_`, ...) and as `torch.X_` functions
where PyTorch has them; `scatter`/`scatter_`/`scatter_add`/`scatter_add_`; `nan_to_num`/`nan_to_num_`;
`torch.normal`, `Tensor.random_` (PyTorch's random streams); `torch.device`, `torch.cuda.is_available`,
`.cpu()`, `.cuda()`, `.to(device)` (a CPU build: CUDA fails as PyTorch's CPU build does); `Tensor.set_`,
`untyped_storage()`, `data_ptr()`, `storage_offset()`.

## The list
"""


if __name__ == "__main__":
    sys.exit(main())
