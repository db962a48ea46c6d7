"""Run one program in gradcli (in process) and in PyTorch (the oracle); return the differences.

Used by the generated-program test, the batch runner (run_generator.py) and
by hand::

    python tests/conformance/differential.py FILE [gradcli run options]

PyTorch runs in a forked child per program (:func:`gradcli.app.oracle.run_isolated`),
so its process-wide state (default dtype, the once-per-process create_graph
warning) starts fresh each time, as gradcli's does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gradcli.app.compare import Difference, diff_documents  # noqa: E402
from gradcli.app.oracle import run_isolated, warm_up  # noqa: E402
from gradcli.lang.result import RunOptions  # noqa: E402

FILENAME = "gen.py"


def gradcli_document(source: str, options: RunOptions, filename: str = FILENAME) -> dict:
    from gradcli.app.records import run_document
    from gradcli.lang.run import run_file

    return run_document(run_file(source, filename, options))


_WARM = False


def pytorch_document(source: str, options: RunOptions, filename: str = FILENAME, timeout: float = 60.0) -> dict:
    global _WARM
    if not _WARM:
        warm_up()  # forked children of a warm parent start in ~40 ms instead of ~1 s
        _WARM = True
    return run_isolated(source, filename, options, timeout=timeout)


def check(source: str, options: Optional[RunOptions] = None,
          filename: str = FILENAME) -> tuple[list[Difference], dict, dict]:
    """(differences, gradcli document, PyTorch document) of one program."""
    options = options if options is not None else RunOptions()
    g = gradcli_document(source, options, filename)
    p = pytorch_document(source, options, filename)
    return diff_documents(g, p), g, p


def describe(diffs: list[Difference], g: dict, p: dict) -> str:
    lines = [f"  {d.tensor or '-'} | {d.field} | gradcli {d.gradcli} | PyTorch {d.pytorch}"
             + (f" ({d.detail})" if d.detail else "") for d in diffs]
    for side, doc in (("gradcli", g), ("PyTorch", p)):
        e = doc.get("error")
        if e:
            lines.append(f"  {side} error: {e['kind']}@{e['line']}: {str(e['message'])[:300]}")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    from gradcli.app.oracle import header_options, options_from_args

    argv = sys.argv[1:] if argv is None else argv
    path = Path(argv[0])
    source = path.read_text(encoding="utf-8")
    options = options_from_args(header_options(source) + argv[1:])
    diffs, g, p = check(source, options, path.name)
    if not diffs:
        print("identical")
        return 0
    print(describe(diffs, g, p))
    return 1




if __name__ == "__main__":
    sys.exit(main())
