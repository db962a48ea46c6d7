"""Coverage-guided fuzzing of ``run_file`` with atheris (libFuzzer), for comparison with long_run.py.

    pip install atheris
    python tests/fuzz/atheris_fuzz.py CORPUS_DIR -max_total_time=600 -timeout=30 -rss_limit_mb=8192

The input bytes are either run as a file directly (byte-level mutation, guided by coverage of the
gradcli package) or, when the first byte is odd, used as the seed of fuzzlib's grammar-aware generator
and mutators (structured inputs, still guided by coverage).  A failure (an exception escaping the
entry point, an unknown error kind, output on the real stdout/stderr) raises, so libFuzzer saves the
input as ``crash-*``.  Seed CORPUS_DIR with the samples and conformance cases:
``python tests/fuzz/atheris_fuzz.py --seed-corpus CORPUS_DIR``.

docs/FUZZING.md compares this with long_run.py (throughput, lines reached) and says which the
project uses for its long runs.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import atheris  # noqa: E402

with atheris.instrument_imports(include=["gradcli"]):
    import fuzzlib  # noqa: E402
    import gradcli.api  # noqa: E402,F401 - the engine too, so coverage guides into it
    import gradcli.app.graph  # noqa: E402,F401
    import gradcli.app.records  # noqa: E402,F401
    import gradcli.app.render.human  # noqa: E402,F401
    from gradcli.lang.result import RunOptions  # noqa: E402


def test_one_input(data: bytes) -> None:
    if data[:1] and data[0] & 1:
        rnd = random.Random(data[1:])
        _, src = fuzzlib.make_input(rnd)
        opts = fuzzlib.random_options(rnd)
    else:
        src, opts = data[1:], RunOptions(**fuzzlib.FUZZ_LIMITS)
    problem = fuzzlib.check_source(src, opts, hang_seconds=0)
    if problem is not None:
        raise RuntimeError(problem)


def seed_corpus(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(fuzzlib.corpus()):
        (out / f"seed-{i:04d}").write_bytes(b"\x00" + text.encode("utf-8"))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--seed-corpus":
        seed_corpus(sys.argv[2])
        sys.exit(0)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
