"""Seeded fuzzing of run_file: random tokens, mutated cases and random bytes never crash the language layer.

Every input must give a RunResult (an error record at worst).  An exception
escaping run_file is acceptable only if it was raised inside the engine (an
engine bug, reported to the CLI as exit 70) -- never from gradcli.lang itself.
"""

from __future__ import annotations

import random
import traceback
from pathlib import Path

import pytest
from conftest import needs_engine

from gradcli.lang.result import RunOptions
from gradcli.lang.run import InvocationError, run_file

DATA = Path(__file__).parent / "data"
TOKENS = [
    "(", ")", "[", "]", ":", "\n", "    ", "x", "=", "+", "*", "-", "1", "2.5", "'s'", "for", "in", "range(3)", "if",
    "def", "f", "return", "lambda", ",", ".", "sum", "torch.ones(2)", "print", "**", "not", "and", "else", "while",
    "break", "continue", "with", "torch.no_grad()", "as", "assert", "{", "}", '"', "'", "#", "\t", "\\", 'f"{x}"',
    "x[0]", "x.grad", "x.sum()", "backward()", "class", "import", "torch", "@", "%", "//", "~", "<<", "is", "*x",
]


def inputs(seed: int, n: int):
    rnd = random.Random(seed)
    corpus = [p.read_text(encoding="utf-8") for p in sorted(DATA.glob("**/*.py"))]
    for _ in range(n):
        r = rnd.random()
        if r < 0.3:
            yield "".join(rnd.choice(TOKENS) + rnd.choice(["", " "]) for _ in range(rnd.randint(1, 40)))
        elif r < 0.8:
            s = rnd.choice(corpus)
            pos = rnd.randrange(len(s))
            op = rnd.random()
            if op < 0.33:
                yield s[:pos] + s[pos + rnd.randint(1, 10):]
            elif op < 0.66:
                yield s[:pos] + rnd.choice(TOKENS) + s[pos:]
            else:
                lines = s.split("\n")
                rnd.shuffle(lines)
                yield "\n".join(lines)
        else:
            yield bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 60)))


def _raised_in_lang(exc: BaseException) -> bool:
    frames = traceback.extract_tb(exc.__traceback__)
    mods = [f.filename for f in frames if "/gradcli/" in f.filename.replace("\\", "/")]
    return bool(mods) and "/gradcli/lang/" in mods[-1].replace("\\", "/")


@needs_engine
@pytest.mark.parametrize("seed", range(4))
def test_fuzz_never_crashes_the_language(seed, capfd):
    opts = RunOptions(max_steps=20_000, timeout=2)
    for src in inputs(seed, 150):
        try:
            result = run_file(src, "fuzz.py", opts)
        except InvocationError:
            continue
        except Exception as e:  # noqa: BLE001 - classify who raised it
            assert not _raised_in_lang(e), f"language layer crashed on {src!r}: {e!r}"
            continue
        assert result.ok or result.error is not None
    assert capfd.readouterr().err == ""
