"""Record PyTorch 2.13's public names, which gradcli ships for its unknown-API check (issue 19).

    python tests/lang/record_torch_api.py           # rewrite src/gradcli/lang/data/torch_api.json
    python tests/lang/record_torch_api.py --check   # exit 1 when the file differs from this PyTorch

For each module a file can reach (``torch``, ``torch.nn``, ``torch.nn.functional``, ``torch.optim`` ...),
the names ``dir(module)`` lists that do not start with ``_``; for ``Tensor`` (and the classes a file's
values often are: ``torch.nn.Module``, ``torch.optim.Optimizer``, ``torch.utils.data.Dataset``...) the
public attributes of the class.  gradcli reads the file at check time (:mod:`gradcli.lang.apicheck`) to
say whether PyTorch has a name gradcli does not implement; which names gradcli implements it never reads
from here: those come from gradcli's own namespaces.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "src" / "gradcli" / "lang" / "data" / "torch_api.json"

#: modules a file reaches (SPEC §2b imports, and the ones real code names that gradcli does not have)
MODULES = (
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils", "torch.nn.utils.clip_grad",
    "torch.nn.parameter",
    "torch.nn.modules", "torch.optim", "torch.optim.lr_scheduler", "torch.autograd", "torch.autograd.functional",
    "torch.autograd.graph", "torch.autograd.forward_ad", "torch.autograd.function", "torch.autograd.grad_mode",
    "torch.autograd.anomaly_mode", "torch.autograd.variable", "torch.func", "torch.utils", "torch.utils.data",
    "torch.utils.checkpoint", "torch.linalg", "torch.fft", "torch.special", "torch.cuda", "torch.backends",
    "torch.distributions", "torch.random", "torch.testing", "torch.jit", "torch.amp", "torch.sparse",
    "torch.masked", "torch.nested", "torch.hub", "torch.onnx", "torch.mps", "torch.distributed", "math",
)
#: classes whose instances a file's values are, by the dotted name the file spells
CLASSES = ("torch.Tensor", "torch.nn.Module", "torch.optim.Optimizer",
           "torch.utils.data.Dataset", "torch.utils.data.DataLoader", "torch.Size", "torch.dtype",
           "torch.Generator", "torch.autograd.Function")


def _public(obj) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def _resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def record() -> dict:
    os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
    import torch

    modules = {}
    for name in MODULES:
        modules[name] = _public(importlib.import_module(name))
    classes = {name: _public(_resolve(name)) for name in CLASSES}
    return {"torch": torch.__version__.split("+")[0], "python": "%d.%d" % sys.version_info[:2],
            "modules": modules, "classes": classes}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    doc = record()
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.check:
        same = OUT.exists() and json.loads(OUT.read_text("utf-8")) == doc
        print("up to date" if same else f"stale: {OUT}")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    n = sum(map(len, doc["modules"].values())) + sum(map(len, doc["classes"].values()))
    print(f"wrote {OUT} (PyTorch {doc['torch']}: {n} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
