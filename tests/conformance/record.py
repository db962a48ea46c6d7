"""(Re)record the PyTorch expectations of conformance cases with the project's oracle.

    python tests/conformance/record.py                     # every case
    python tests/conformance/record.py regressions/foo ... # some cases (names or .py paths)
    python tests/conformance/record.py --check             # only report stale expectations

Each case runs under real PyTorch 2.13 (``gradcli.app.oracle.run_isolated``,
with the options of its ``# gradcli:`` header) and ``NAME.expected.json`` is
written beside it, formatted as the shared suite's expectations.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from casefiles import HERE, discover, format_differences  # noqa: E402

from gradcli.app.compare import diff_documents  # noqa: E402
from gradcli.app.oracle import dumps, run_isolated  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("cases", nargs="*", help="case names (CATEGORY/NAME) or paths; default: all")
    p.add_argument("--check", action="store_true", help="do not write; exit 1 when an expectation is stale")
    args = p.parse_args(argv)
    cases = discover()
    if args.cases:
        want = set()
        for c in args.cases:
            path = Path(c)
            want.add(path.resolve().relative_to(HERE).with_suffix("").as_posix() if path.suffix == ".py"
                     else c.removesuffix(".py"))
        cases = [c for c in cases if c.name in want]
        missing = want - {c.name for c in cases}
        if missing:
            print(f"record.py: no such case: {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    stale = 0
    for c in cases:
        doc = run_isolated(c.source, c.path.name, c.options())
        old = c.expected() if c.expected_path.exists() else None
        diffs = diff_documents(old, doc) if old is not None else ["new"]
        if args.check:
            if diffs:
                stale += 1
                print(f"STALE {c.name}")
                if old is not None:
                    print(format_differences(diffs))
            continue
        c.expected_path.write_text(dumps(doc) + "\n", encoding="utf-8")
        status = "ok" if doc["ok"] else f"error {doc['error']['kind']}@{doc['error']['line']}"
        print(f"recorded {c.name}: {status}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
