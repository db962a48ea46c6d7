"""Re-record the PyTorch 2.13 expectations of samples/*.py (needs torch and ../shared/conformance/tools).

    python tests/samples/record_samples.py

Writes tests/samples/expected/NAME.expected.json with the oracle's gradcli.run/1 JSON.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORACLE = ROOT.parent / "shared" / "conformance" / "tools" / "torch_run.py"

for sample in sorted((ROOT / "samples").glob("*.py")):
    out = subprocess.run([sys.executable, str(ORACLE), str(sample)], capture_output=True, text=True, cwd=sample.parent)
    (Path(__file__).parent / "expected" / f"{sample.stem}.expected.json").write_text(out.stdout)
    print(sample.name, "rc", out.returncode)
