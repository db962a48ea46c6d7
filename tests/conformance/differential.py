"""Run one program in gradcli (in process) and in PyTorch (the oracle); return the differences.

Used by the generated-program test, the batch runner (run_generator.py) and
by hand::

    python tests/conformance/differential.py FILE [gradcli run options]

PyTorch runs in a forked child per program (:func:`gradcli.app.oracle.run_isolated`),
so its process-wide state (default dtype, the once-per-process create_graph
warning) starts fresh each time, as gradcli's does.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gradcli.app.compare import Difference, _norm_stdout, diff_documents  # noqa: E402
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


_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def stdout_close(gradcli_text: str, pytorch_text: str) -> bool:
    """Printed text equal up to numbers within float32 tolerance (rtol 1e-5, atol 1e-6).

    SPEC 2b: printed numbers compare within the tolerances of section 1, as the shared
    conformance compare (tools/compare.py, ``stdout_close``) does: a float32 ``loss.item()``
    of a training loop printed in full shows the last-bit differences of BLAS and reduction
    order that the tensor comparison already tolerates.  Text, and the count of numbers,
    must agree exactly."""
    if _NUMBER.sub("#", gradcli_text) != _NUMBER.sub("#", pytorch_text):
        return False
    for x, y in zip(_NUMBER.findall(gradcli_text), _NUMBER.findall(pytorch_text)):
        if x != y and not abs(float(x) - float(y)) <= 1e-6 + 1e-5 * abs(float(y)):
            return False
    return True


def check(source: str, options: Optional[RunOptions] = None,
          filename: str = FILENAME) -> tuple[list[Difference], dict, dict]:
    """(differences, gradcli document, PyTorch document) of one program.

    stdout differences are dropped when the texts agree up to printed numbers within
    tolerance (:func:`stdout_close`)."""
    options = options if options is not None else RunOptions()
    g = gradcli_document(source, options, filename)
    p = pytorch_document(source, options, filename)
    diffs = diff_documents(g, p)
    if any(d.field.startswith("stdout") for d in diffs) and stdout_close(
            _norm_stdout(g.get("stdout")), _norm_stdout(p.get("stdout"))):
        diffs = [d for d in diffs if not d.field.startswith("stdout")]
    return diffs, g, p


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
