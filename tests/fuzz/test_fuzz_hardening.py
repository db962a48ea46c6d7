"""The fuzz share of issue 20's classes (fuzzlib.gen_hardening, check_cli_paths), seeded and bounded.

Deep nesting built in loops, structures sharing inner objects, big ints, long strings, forged engine
objects, odd hook returns and ctx fields, each handed to the C calls that recurse or loop on it: every
input ends as SPEC says (fuzzlib.check_source: a value or an error of a SPEC §4 kind, no exception, no
hang, nothing on the real stdout); an output path naming the input in any spelling is refused (exit 2)
and the input is unchanged.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib  # noqa: E402


def test_the_classes_of_issue_20_in_process():
    rnd = random.Random(20)
    failures = []
    for i in range(120):
        src = fuzzlib.gen_hardening(rnd)
        problem = fuzzlib.check_source(src, fuzzlib.random_options(rnd), rnd=rnd, hang_seconds=60)
        if problem is not None:
            failures.append((i, src, problem[-1500:]))
    assert not failures, failures[:3]


def test_outputs_naming_the_input_are_refused(tmp_path):
    rnd = random.Random(21)
    path = tmp_path / "fuzz.py"
    path.write_text("x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n")
    problems = [fuzzlib.check_cli_paths(rnd, path) for _ in range(4)]
    assert problems == [None] * 4, problems
