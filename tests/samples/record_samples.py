"""Re-record the PyTorch 2.13 expectations of samples/*.py (needs torch and ../shared/conformance/tools).

    python tests/samples/record_samples.py

Writes tests/samples/expected/NAME.expected.json with the oracle's gradcli.run/1 JSON.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORACLE = ROOT.parent / "shared" / "conformance" / "tools" / "torch_run.py"

for sample in sorted((ROOT / "samples").glob("*.py")):
    out = subprocess.run([sys.executable, str(ORACLE), str(sample.relative_to(ROOT))], cwd=ROOT,
                         env=dict(os.environ, ATEN_CPU_CAPABILITY="avx2", MKL_ENABLE_INSTRUCTIONS="AVX2"), capture_output=True, text=True)
    (Path(__file__).parent / "expected" / f"{sample.stem}.expected.json").write_text(out.stdout)
    print(sample.name, "rc", out.returncode)
