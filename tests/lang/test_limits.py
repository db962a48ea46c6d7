"""Resource limits (issue 8, Must have 3): each is a ``limit`` error naming the limit and what raises it.

Defaults keep a 24 GiB, 2-core machine responsive (lang.limits.Limits, autograd.limits): tensors of at
most 10^8 elements, 4 GiB of live memory, 10^7 steps, 60 s, 200 nested calls, a syntax tree 200 deep
(brackets 100), 1 MB of source, 10^7 printed characters.  The tests use small limits so they run fast.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import needs_engine

from gradcli.lang.limits import DEFAULT_LIMITS

SRC = Path(__file__).resolve().parents[2] / "src"


def limit(r, option_hint: str, words: str = ""):
    assert not r.ok and r.error is not None, "the run should have hit a limit"
    assert r.error.kind == "limit", r.error
    assert option_hint in r.error.hint, r.error.hint
    assert words in r.error.message, r.error.message
    return r.error


def test_defaults_fit_a_24_gib_two_core_machine():
    d = DEFAULT_LIMITS
    assert d.max_elements == 10**8 and d.max_memory == 4 << 30 and d.max_steps == 10**7 and d.timeout == 60
    assert d.max_call_depth == 200 and d.max_ast_depth == 200 and d.max_nesting == 100
    assert d.max_source_bytes == 1_000_000 and d.max_output == 10**7


# --- tensor elements and live bytes ----------------------------------------------------------------------
@needs_engine
@pytest.mark.parametrize("src", [
    "x = torch.zeros(10**9)\n",
    "x = torch.ones(2**31, 2**31)\n",
    "x = torch.ones(1).expand(10**9)\n",
    "x = torch.ones(10**4).repeat(10**5)\n",
    "x = torch.arange(10**10)\n",
    "x = torch.ones(10**5, 1) @ torch.ones(1, 10**5)\n",
    "x = torch.cat([torch.ones(10**7)] * 20)\n",
])
def test_tensor_elements(run, src):
    e = limit(run(src, max_elements=10**8), "--max-elements", "elements")
    assert e.line == 1


@needs_engine
def test_live_memory_of_tensors(run):
    # 60 tensors of 10^6 float32: 240 MB held, over a 64 MiB budget; refused before the allocation
    src = "L = []\nfor i in range(60):\n    L.append(torch.ones(10**6))\n"
    e = limit(run(src, max_memory=64 << 20), "--max-memory", "memory limit of 64 MiB")
    assert e.line == 3
    assert run(src, max_memory=1 << 30).ok


@needs_engine
def test_live_memory_of_python_objects(run):
    # many small lists: no single allocation is big; the clock-time check of the budget sees the growth
    src = "L = [[i] for i in range(3 * 10**6)]\n"
    limit(run(src, max_memory=64 << 20, max_steps=10**8), "--max-memory", "memory")


@needs_engine
def test_memory_backstop_for_broadcasting(run):
    # two small tensors broadcast to 4.9e9 elements (19.6 GB): no op-level check sees it coming, the
    # RLIMIT_DATA backstop makes the allocation fail instead of filling the machine
    t0 = time.monotonic()
    r = run("a = torch.ones(70000, 1)\nb = torch.ones(1, 70000)\nc = a + b\n", max_memory=256 << 20)
    e = limit(r, "--max-memory", "memory")
    assert e.line == 3 and time.monotonic() - t0 < 30


@needs_engine
def test_tolist_of_a_huge_tensor_costs_steps(run):
    # 10^8 Python floats (3.2 GB) would be built in one C call: charged to the step budget first
    limit(run("L = torch.zeros(10**8).tolist()\n", max_elements=10**8), "--max-steps", "steps")


# --- steps, time, calls, expressions, source, output -----------------------------------------------
def test_loop_steps(run):
    e = limit(run("n = 0\nwhile True:\n    n += 1\n", max_steps=10_000), "--max-steps", "10,000 steps")
    assert e.line == 2


def test_wall_clock(run):
    t0 = time.monotonic()
    e = limit(run("while True:\n    pass\n", timeout=0.5, max_steps=10**12), "--timeout", "time limit of 0.5 s")
    assert e.line == 1 and time.monotonic() - t0 < 5


def test_call_depth(run):
    e = limit(run("def f(n):\n    return f(n + 1)\nf(0)\n"), "--max-call-depth", "200 deep")
    assert e.line == 2
    deep = "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(300))\n"
    limit(run(deep), "--max-call-depth", "200 deep")
    r = run(deep, max_call_depth=400)
    assert r.ok and r.stdout == "300\n"


def test_expression_depth(run):
    limit(run("x = " + "- " * 400 + "1\n"), "--max-depth", "levels deep")
    limit(run("x = " + "(" * 150 + "1" + ")" * 150 + "\n"), "--max-depth", "nested more than 100")
    # --max-depth N: brackets N deep, syntax tree 2N deep
    assert run("x = " + "(" * 150 + "1" + ")" * 150 + "\n", max_depth=160).ok
    assert run("x = " + "- " * 400 + "1\n", max_depth=250).ok


def test_source_size(run):
    e = limit(run("x = 1\n" * 200_000), "--max-source", "larger than the limit of 1,000,000 bytes")
    assert e.line is None
    assert run("x = 1\n" * 200_000, max_source_bytes=2_000_000).ok


def test_output_size(run):
    limit(run("for i in range(10**6):\n    print('x' * 20)\n", max_output=10**6), "--max-output", "printed more")
    limit(run("print('x' * 50)\nprint('y' * 50)\n", max_output=60), "--max-output", "more than 60 characters")
    assert run("print('x' * 50)\nprint('y' * 50)\n", max_output=102).ok


@needs_engine
def test_printing_a_huge_tensor_is_summarised(run):
    # PyTorch prints 6 values of a 10^8-element tensor; so does gradcli, without building a huge string
    t0 = time.monotonic()
    r = run("x = torch.zeros(10**8)\nprint(x)\nprint(x.reshape(10**4, 10**4))\nprint(f'{x}')\n")
    assert r.ok, r.error
    assert r.stdout.splitlines()[0] == "tensor([0., 0., 0.,  ..., 0., 0., 0.])"
    assert len(r.stdout) < 1000 and time.monotonic() - t0 < 30


# --- exponential graphs ---------------------------------------------------------------------------------
@needs_engine
def test_doubling_graph(run):
    # y = y + y sixty times: 60 nodes, each used twice; backward is linear (dependency counts)
    t0 = time.monotonic()
    r = run("x = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(60):\n    y = y + y\n"
            "y.backward()\nprint(x.grad)\n")
    assert r.ok, r.error
    assert r.stdout == "tensor(1.1529e+18)\n" and time.monotonic() - t0 < 5


@needs_engine
def test_diamond_graph(run):
    # 60 diamonds (2^60 paths from the root to x): still one visit per node
    t0 = time.monotonic()
    r = run("x = torch.tensor([1.0, 2.0], requires_grad=True)\na = x\nfor i in range(60):\n"
            "    b = a * 0.5\n    c = a * 0.5\n    a = b + c\nl = a.sum()\nl.backward()\nprint(x.grad)\n")
    assert r.ok, r.error
    assert r.stdout == "tensor([1., 1.])\n" and time.monotonic() - t0 < 5


@needs_engine
def test_exponential_higher_order_graph_hits_the_clock(run):
    # each create_graph derivative of tanh doubles the graph: one step per grad, exponential work inside
    # the engine -- the backward pass checks the clock every few hundred nodes
    t0 = time.monotonic()
    r = run("x = torch.tensor(0.5, requires_grad=True)\ng = torch.tanh(x)\nfor i in range(40):\n"
            "    g, = torch.autograd.grad(g, x, create_graph=True)\n", timeout=1.0)
    e = limit(r, "--timeout", "time limit")
    assert e.line == 4 and time.monotonic() - t0 < 10


@needs_engine
def test_repeat_a_billion_times(run):
    src = "x = torch.ones(3, requires_grad=True)\ny = (x * 2).sum()\n"
    r = run(src, repeat=10**9, retain_graph=True, max_steps=5000)
    limit(r, "--max-steps", "steps")
    assert r.error.line is None  # raised by the backward gradcli runs after the file
    x = dict(r.tensors)["x"]
    assert 2 * 4000 <= float(x.grad[0]) <= 2 * 5001


# --- deep recursion inside C (repr, ==, hash of nested data) never crashes the process --------------
@needs_engine
@pytest.mark.parametrize("tail", [
    "s = str(L)\n",
    "M = []\nfor i in range(150000):\n    M = [M]\nb = L == M\n",
    "d = {}\nfor i in range(150000):\n    d = {'a': d}\ns = str(d)\n",
    "t = ()\nfor i in range(150000):\n    t = (t,)\nh = {t: 1}\n",
])
def test_deep_c_recursion_is_an_error_or_works(run, tail):
    # a 190-deep expression raises the Python recursion limit to ~44,000; C recursion on the program's data
    # runs on the worker's big stack: a RecursionError (limit) or a result, never a segmentation fault
    src = "d0 = " + "- " * 190 + "1\nL = []\nfor i in range(150000):\n    L = [L]\n" + tail
    r = run(src, max_steps=10**6)
    assert r.ok or r.error.kind == "limit", r.error


# --- the hard deadline: one long engine operation --------------------------------------------------------
def _gradcli(args: list, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "gradcli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


@needs_engine
def test_hard_deadline_stops_one_long_operation(tmp_path):
    # a 6000x6000 matmul chain runs far longer than 1 s inside BLAS, where no step is counted: the run is
    # abandoned at --timeout + 2 s with the limit error at the running line, and the process exits
    (tmp_path / "mm.py").write_text("a = torch.ones(6000, 6000)\nb = a @ a\nc = b @ a\nd = c @ a\n")
    t0 = time.monotonic()
    p = _gradcli(["run", "mm.py", "--timeout", "1", "--json"], tmp_path)
    took = time.monotonic() - t0
    assert p.returncode == 1, p.stderr
    doc = json.loads(p.stdout)
    # line 1 too: on a loaded machine filling the first 144 MB can itself outlast the 1 s (measured at load 10)
    assert doc["error"]["kind"] == "limit" and doc["error"]["line"] in (1, 2, 3, 4)
    assert "--timeout" in doc["error"]["hint"] and doc["tensors"] == []
    assert took < 30 and "Traceback" not in p.stderr


@needs_engine
def test_limits_through_the_cli_name_their_option(tmp_path):
    (tmp_path / "big.py").write_text("L = []\nfor i in range(60):\n    L.append(torch.ones(10**6))\n")
    p = _gradcli(["run", "big.py", "--max-memory", "64M"], tmp_path)
    assert p.returncode == 1 and "error: limit" in p.stdout and "--max-memory" in p.stdout, p.stdout
    p = _gradcli(["run", "big.py", "--max-memory", "lots"], tmp_path)
    assert p.returncode == 2 and "--max-memory" in p.stderr
    p = _gradcli(["run", "big.py", "--max-elements", "1000"], tmp_path)
    assert p.returncode == 1 and "--max-elements" in p.stdout
    p = _gradcli(["run", "big.py", "--max-steps", "10"], tmp_path)
    assert p.returncode == 1 and "--max-steps" in p.stdout


@pytest.mark.parametrize("source, low, high", [
    ("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(300))\n",
     ["--max-call-depth", "100"], ["--max-call-depth", "400"]),
    ("print('x' * 50)\nprint('y' * 50)\n", ["--max-output", "60"], ["--max-output", "200"]),
    ("x = 1\n" + "# padding\n" * 200, ["--max-source", "1K"], ["--max-source", "4K"]),
    ("x = " + "(" * 150 + "1" + ")" * 150 + "\n", ["--max-depth", "100"], ["--max-depth", "160"]),
])
def test_each_limit_names_the_option_that_raises_it(tmp_path, source, low, high):
    """A run just over the limit fails with ``limit`` and a hint naming the option; the option lets it run."""
    (tmp_path / "f.py").write_text(source)
    p = _gradcli(["run", "f.py", "--json", *low], tmp_path)
    doc = json.loads(p.stdout)
    assert p.returncode == 1 and doc["error"]["kind"] == "limit" and low[0] in doc["error"]["hint"], p.stdout
    p = _gradcli(["run", "f.py", "--json", *high], tmp_path)
    assert p.returncode == 0 and json.loads(p.stdout)["ok"], p.stdout + p.stderr


def test_max_source_reaches_every_reader(tmp_path):
    """``modes`` reads the file itself: --max-source must raise its read limit too (it read at most the default
    1,000,000 bytes + 1 and ran the truncated file)."""
    (tmp_path / "f.py").write_text("x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n" + "# pad\n" * 200_000
                                   + "z = y * 3\n")
    p = _gradcli(["modes", "f.py", "--json"], tmp_path)
    # the file's own failure, as `run` reports it (issue 19): exit status 1, the limit error in the document
    err = json.loads(p.stdout)["error"]
    assert p.returncode == 1 and err["kind"] == "limit", p.stdout + p.stderr
    assert "larger than the limit of 1,000,000 bytes" in err["message"]
    p = _gradcli(["modes", "f.py", "--json", "--max-source", "2M"], tmp_path)
    doc = json.loads(p.stdout)
    assert p.returncode == 0 and doc["modes"][0]["ok"], p.stdout + p.stderr
    assert "z" in [t["name"] for t in doc["modes"][0]["tensors"]]  # the line after the first 1,000,000 bytes ran


@pytest.mark.parametrize("args", [["--max-call-depth", "0"], ["--max-call-depth", "100000"], ["--max-output", "0"],
                                  ["--max-source", "none"], ["--max-depth", "0"], ["--max-depth", "5000"]])
def test_a_limit_option_out_of_range_is_a_usage_error(tmp_path, args):
    (tmp_path / "f.py").write_text("x = 1\n")
    p = _gradcli(["run", "f.py", *args], tmp_path)
    assert p.returncode == 2 and args[0] in p.stderr + p.stdout and "Traceback" not in p.stderr


@needs_engine
def test_last_resort_ends_a_process_stuck_in_one_c_call(tmp_path):
    # torch.Size(range(n)) builds its tuple in one C call that never lets another thread run, so even the
    # hard deadline cannot take over; the faulthandler watchdog of app/run.py ends the process (status 1,
    # silently) LAST_RESORT seconds after it -- made 3 s here
    (tmp_path / "gil.py").write_text("s = torch.Size(range(3 * 10**8))\nprint('done')\n")
    code = ("import sys\nsys.path.insert(0, %r)\nimport gradcli.app.run as r\nr.LAST_RESORT = 3\n"
            "from gradcli.cli import main\nsys.exit(main(['run', 'gil.py', '--timeout', '1', '--json']))\n"
            % str(SRC))
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1) and "Traceback" not in p.stdout + p.stderr
    assert time.monotonic() - t0 < 60


# --- what a file makes gradcli show stays small -----------------------------------------------------------
def test_huge_messages_are_clipped(run):
    r = run("d = {}\nx = d['a' * 10**7]\n")
    assert r.error.kind == "runtime" and len(r.error.message) < 2100 and "more characters" in r.error.message
    r = run("s = 'a' * 10**7\nassert False, s\n")
    assert r.error.kind == "assertion" and len(r.error.message) < 2100


def test_many_static_problems_are_listed_briefly(run):
    r = run("global x\n" * 50_000)
    assert r.error.kind == "unsupported" and len(r.error.problems) == 101
    assert "49,900 more problems" in r.error.problems[-1]["message"]


def test_panels_of_huge_errors_render_fast(tmp_path):
    from gradcli.app.render.console import make_console
    from gradcli.app.render.panels import error_panel
    from gradcli.lang.run import run_file
    import io

    src = "x = " + "y" * 500_000 + " + 1\n"
    r = run_file(src, "long.py")
    out = io.StringIO()
    t0 = time.monotonic()
    make_console(out, width=100).print(error_panel(r.error, r.file, r.source))
    assert time.monotonic() - t0 < 10 and len(out.getvalue()) < 20_000


def test_round_with_huge_negative_digits_is_instant(run):
    # round(int, -n) computes 10**n in C, where no limit can interrupt it: gradcli answers 0 directly
    t0 = time.monotonic()
    r = run("print(round(5, -10**8), round(1250, -2), round(-5, -1), round(15, -1), round(2.675, 2))\n")
    assert r.ok and r.stdout == "0 1200 0 20 2.67\n" and time.monotonic() - t0 < 5


def test_bad_gradient_option_is_an_invocation_error(run):
    from gradcli.lang.run import InvocationError

    src = "x = torch.ones(2, requires_grad=True)\ny = x * 2\n"
    for bad in ("[[[", "eval(1)"):
        with pytest.raises(InvocationError, match="--gradient"):
            run(src, gradient=bad)
    r = run(src, gradient="[1.0, 2.0, 3.0]")  # a real value of the wrong shape: the run's own error
    assert r.error.kind == "grad_shape" and r.error.line is None


# --- the same limits at the command line: exit 1, a `limit` error naming the limit and its option ------------
@needs_engine
def test_timeout_and_repeat_through_the_cli(tmp_path):
    (tmp_path / "loop.py").write_text("n = 0\nwhile True:\n    n += 1\n")
    t0 = time.monotonic()
    p = _gradcli(["run", "loop.py", "--timeout", "1", "--max-steps", "1000000000000", "--json"], tmp_path)
    doc = json.loads(p.stdout)
    assert p.returncode == 1 and doc["error"]["kind"] == "limit" and doc["error"]["line"] in (2, 3)
    assert "time limit of 1 s" in doc["error"]["message"] and "--timeout" in doc["error"]["hint"]
    assert time.monotonic() - t0 < 60 and "Traceback" not in p.stderr
    # --repeat 10**9: the backward gradcli runs after the file, a billion times, counted as steps
    (tmp_path / "rep.py").write_text("x = torch.ones(3, requires_grad=True)\ny = (x * 2).sum()\n")
    p = _gradcli(["run", "rep.py", "--repeat", str(10**9), "--retain-graph", "--max-steps", "5000", "--json"],
                 tmp_path)
    doc = json.loads(p.stdout)
    assert p.returncode == 1 and doc["error"]["kind"] == "limit" and doc["error"]["line"] is None
    assert "5,000 steps" in doc["error"]["message"] and "--max-steps" in doc["error"]["hint"]
    grad = {t["name"]: t["grad"] for t in doc["tensors"]}["x"]
    assert 2 * 4000 <= grad[0] <= 2 * 5001  # the repetitions that ran did accumulate (2 per backward)


@needs_engine
def test_printing_a_10_to_the_8_element_tensor_through_the_cli(tmp_path):
    # print, the tensors table and the JSON document of a 10^8-element tensor stay small and quick
    (tmp_path / "huge.py").write_text("x = torch.zeros(10**8)\nprint(x)\n")
    for args in (["run", "huge.py"], ["run", "huge.py", "--json"]):
        t0 = time.monotonic()
        p = _gradcli(args, tmp_path)
        assert p.returncode == 0, p.stderr[-2000:]
        assert "tensor([0., 0., 0.,  ..., 0., 0., 0.])" in p.stdout
        assert len(p.stdout) < 20_000 and time.monotonic() - t0 < 90 and p.stderr == ""


def test_a_limit_that_is_no_number_is_an_invocation_error(run, tmp_path):
    # typer's min=0 lets nan through; it used to run and report "a time limit of nan s" (exit 1)
    from gradcli.lang.run import InvocationError

    for bad in (dict(timeout=float("nan")), dict(timeout=-1.0), dict(max_steps=0), dict(max_elements=-5),
                dict(max_call_depth=True)):
        with pytest.raises(InvocationError, match="bad --|bad max_"):
            run("x = 1\n", **bad)
    (tmp_path / "p.py").write_text("x = 1\n")
    p = _gradcli(["run", "p.py", "--timeout", "nan"], tmp_path)
    assert p.returncode == 2 and "--timeout" in p.stderr and "Traceback" not in p.stderr


# --- the text of a hugely shared nested list: refused before one long C call ---------------------------------
@pytest.mark.parametrize("use, option", [
    ("s = str(L)\n", "--max-elements"),
    ("s = f'{L}'\n", "--max-elements"),
    ("s = f'{L!r}'\n", "--max-elements"),
    ("print(L)\n", "Print less"),
    ("print('x', (1, {'k': L}))\n", "Print less"),
])
def test_text_of_a_hugely_shared_list(run, use, option):
    # one list of 10^4 zeros shared 10^4 times: 3 * 10^8 characters, 40 s inside str() where no clock check
    # can stop it (measured); a lower bound of the length is checked first
    t0 = time.monotonic()
    e = limit(run("L = [[0] * 10**4] * 10**4\n" + use), option, "characters")
    assert e.line == 2 and time.monotonic() - t0 < 10


def test_text_of_ordinary_containers_is_unchanged(run):
    # the reference is Python's own str of the same values
    src = ("L = [1, 2.5, 'a', (1,), {'k': [None, True]}, [], (), {}]\nC = []\nC.append(C)\n"
           "print(L, str(L), f'{L}', f'{L!r}', C, str(C))\n")
    C: list = []
    C.append(C)
    L = [1, 2.5, "a", (1,), {"k": [None, True]}, [], (), {}]
    assert run(src).stdout == " ".join([str(L), str(L), f"{L}", f"{L!r}", str(C), str(C)]) + "\n"


def test_text_size_is_a_lower_bound():
    import random

    from gradcli.lang.limits import text_size

    rnd = random.Random(8)
    leaves = [0, -7, 2.5, 1e300, float("nan"), True, None, "", "ab", "quote's", 10**30]

    def build(depth):
        k = rnd.random()
        if depth > 3 or k < 0.4:
            return rnd.choice(leaves)
        items = [build(depth + 1) for _ in range(rnd.randrange(4))]
        if k < 0.6:
            return tuple(items)
        if k < 0.8:
            return {rnd.choice([1, "k", (2,), None, "a" * rnd.randrange(3)]): v for v in items}
        return items

    for _ in range(2000):
        obj = build(0)
        n = len(str(obj))
        assert text_size(obj, 10**9) <= n, obj
        assert text_size(obj, n - 1) <= n  # past the cap: cap + 1 = n at most
