"""Re-record tests/cli/data/*.expected.json from real PyTorch (run by hand, needs torch 2.13).

    python tests/cli/record_cli_cases.py [PATH/TO/torch_run.py]

Each case's options are in its first line (``# gradcli: ...``), which the
oracle reads itself.  The expectations are what PyTorch does, never gradcli's
own output; the tests compare gradcli with them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_ORACLE = HERE.parents[2] / "shared" / "conformance" / "tools" / "torch_run.py"


def main() -> int:
    oracle = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ORACLE
    bad = 0
    for case in sorted((HERE / "data").glob("*.py")):
        out = subprocess.run([sys.executable, str(oracle), "run", case.name, "--json"], cwd=case.parent,
                             capture_output=True, text=True)
        if out.returncode not in (0, 1) or not out.stdout.strip():
            print(f"NOT RECORDED {case.name}: exit {out.returncode}: {out.stderr.strip()[-300:]}")
            bad += 1
            continue
        case.with_suffix("").with_suffix(".expected.json").write_text(out.stdout, encoding="utf-8")
        print(f"recorded {case.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
