"""CI snapshots: ``gradcli run FILE --snapshot snap.json`` / ``--expect-snapshot snap.json``.

A snapshot is the run's ``gradcli.run/1`` JSON document (what ``--json``
prints), written atomically: to an unnamed temporary file in the same directory, then
``os.replace`` over the target, so a reader never sees half a file and an
interrupted write leaves the old snapshot intact.

``--expect-snapshot`` compares the new run with a snapshot by the conformance
rules (:func:`gradcli.app.compare.diff_documents`: ok, error kind and line,
warnings as (kind, line), stdout, every tensor's shape, dtype, flags, grad_fn
and data/grad within float32 rtol 1e-5 atol 1e-6 / float64 rtol 1e-10 atol
1e-12); fields the rules ignore (messages, hints, ``why``, ``related``) may
change freely.  No rich here: :mod:`.render.snapshot` draws the differences.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from .compare import Difference, diff_documents
from .problems import UsageProblem

__all__ = ["write_snapshot", "read_snapshot", "check_writable", "SnapshotCheck", "compare_snapshot"]


def check_writable(path: str, source: str = "-") -> None:
    """Raise UsageProblem (exit 2) before the run when ``path`` cannot be written or is the input ``source``."""
    d = os.path.dirname(os.path.abspath(path)) or "."
    from .outpaths import refuse_input

    refuse_input(path, source, "--snapshot", "the snapshot")  # issues 8, 20: gradcli never writes its input
    if os.path.isdir(path):
        raise UsageProblem(f"--snapshot {path}: is a directory")
    if not os.path.isdir(d):
        raise UsageProblem(f"--snapshot {path}: the directory {d} does not exist")
    if not os.access(d, os.W_OK):
        raise UsageProblem(f"--snapshot {path}: the directory {d} is not writable")


def write_snapshot(path: str, document: dict) -> None:
    """Write ``document`` as JSON to ``path`` atomically (an unnamed temporary file + os.replace).

    Through :func:`gradcli.app.graph.write_atomic`: killed mid-write, gradcli leaves the old snapshot
    intact and no temporary file (issue 8); a failed write is a UsageProblem naming ``--snapshot``.
    """
    from .graph import write_atomic

    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    write_atomic(path, text.encode("utf-8"), option="--snapshot")


def read_snapshot(path: str) -> dict:
    """The snapshot document at ``path``; UsageProblem (exit 2) when missing or not a gradcli.run/1 object."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise UsageProblem(f"--expect-snapshot {path}: no such file",
                           "Record it first with: gradcli run FILE --snapshot " + path) from None
    except (OSError, ValueError) as exc:
        raise UsageProblem(f"--expect-snapshot {path}: cannot read it as JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("schema") != "gradcli.run/1" or "tensors" not in doc:
        raise UsageProblem(f"--expect-snapshot {path}: not a gradcli.run/1 snapshot")
    return doc


@dataclass
class SnapshotCheck:
    """The outcome of ``--expect-snapshot``: the differences of the new run from the snapshot."""

    path: str
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def compare_snapshot(path: str, document: dict, expected: Any = None) -> SnapshotCheck:
    """Compare the new run's document with the snapshot at ``path`` (or the already-read ``expected``)."""
    snap = expected if expected is not None else read_snapshot(path)
    return SnapshotCheck(path, diff_documents(document, snap))
