"""Issue 8 at the command line: internal errors, and no data lost.

* a bug inside gradcli (here: an engine function made to fail) is one "internal error" panel, exit 70,
  the traceback only with --debug;
* gradcli writes only the files the user names, atomically: killed (SIGKILL) in the middle of writing
  ``--output``, or failing half-way, the old file is intact and no temporary file is left; the input is
  never the output; processes running side by side share nothing and leave nothing behind.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gradcli.cli import app

SRC = Path(__file__).resolve().parents[2] / "src"
PROGRAM = "x = torch.tensor([1.0, 2.0], requires_grad=True)\nw = torch.ones(2, requires_grad=True)\n" \
          "y = (x * w).sum()\ny.backward()\nprint(x.grad)\n"
OLD = "digraph old { precious -> data }\n"


# --- internal errors ------------------------------------------------------------------------------------
def _break_engine(monkeypatch, exc: BaseException):
    import gradcli.autograd.engine as engine

    def broken(*args, **kwargs):
        raise exc

    monkeypatch.setattr(engine, "_make_grads", broken)


@pytest.mark.parametrize("exc", [ZeroDivisionError("engine bug"), KeyError("engine bug"),
                                 AttributeError("engine bug"), ValueError("engine bug")])
def test_engine_bug_is_one_internal_error_panel(runner, monkeypatch, exc):
    _break_engine(monkeypatch, exc)
    r = runner.invoke(app, ["run", "-"], input=PROGRAM)
    assert r.exit_code == 70, (r.stdout, r.stderr)
    assert r.stderr.count("internal error") == 1 and "engine bug" in r.stderr
    assert "Traceback" not in r.stdout + r.stderr and "--debug" in r.stderr
    assert "report" in r.stderr  # how to report it


def test_engine_bug_traceback_only_with_debug(runner, monkeypatch):
    _break_engine(monkeypatch, ZeroDivisionError("engine bug"))
    r = runner.invoke(app, ["run", "-", "--debug", "--json"], input=PROGRAM)
    assert r.exit_code == 70
    assert "Traceback (most recent call last)" in r.stderr and "_make_grads" in r.stderr
    assert r.stdout == ""  # --json: no half document


def test_bug_in_the_run_threads_cleanup_is_an_internal_error(runner, monkeypatch, capfd):
    # outside the run's own guard, on the run's thread: it used to print a thread traceback on stderr and
    # give the result as if nothing happened
    import gradcli.lang.run as run_module

    real = run_module.gc.enable

    def broken():
        real()
        raise RuntimeError("cleanup bug")

    monkeypatch.setattr(run_module.gc, "enable", broken)
    r = runner.invoke(app, ["run", "-"], input=PROGRAM)
    monkeypatch.undo()
    assert r.exit_code == 70 and r.stderr.count("internal error") == 1 and "cleanup bug" in r.stderr
    assert "Traceback" not in r.stdout + r.stderr + capfd.readouterr().err
    assert runner.invoke(app, ["run", "-"], input=PROGRAM).exit_code == 0  # the next run is fine


def test_renderer_bug_is_an_internal_error(runner, monkeypatch):
    import gradcli.app.render.human as human

    def broken(*a, **k):
        raise IndexError("renderer bug")

    monkeypatch.setattr(human, "short_values", broken)
    r = runner.invoke(app, ["run", "-"], input=PROGRAM)
    assert r.exit_code == 70 and "internal error" in r.stderr and "Traceback" not in r.stderr


def test_engine_bug_in_a_real_process_prints_no_traceback(tmp_path):
    code = (
        "import sys\nsys.path.insert(0, %r)\nimport gradcli.autograd.engine as e\n"
        "def broken(*a, **k):\n    raise RuntimeError('engine bug')\ne._make_grads = broken\n"
        "from gradcli.cli import main\nsys.exit(main(['run', 'p.py']))\n" % str(SRC)
    )
    (tmp_path / "p.py").write_text(PROGRAM)
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, NO_COLOR="1"))
    assert p.returncode == 70 and "internal error" in p.stderr
    assert "Traceback" not in p.stdout + p.stderr


# --- no data lost -----------------------------------------------------------------------------------------
def test_output_is_never_the_input(runner, tmp_path):
    src = tmp_path / "graph.dot"
    src.write_text(PROGRAM)
    r = runner.invoke(app, ["graph", str(src), "--output", str(src)])
    assert r.exit_code == 2 and "input" in r.stderr
    assert src.read_text() == PROGRAM
    link = tmp_path / "other.dot"
    os.symlink(src, link)  # the same file under another name
    assert runner.invoke(app, ["graph", str(src), "--output", str(link)]).exit_code == 2
    assert src.read_text() == PROGRAM


def test_write_failing_half_way_keeps_the_old_output(runner, tmp_path, monkeypatch):
    import gradcli.app.graph as graph

    (tmp_path / "p.py").write_text(PROGRAM)
    out = tmp_path / "out.dot"
    out.write_text(OLD)

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(graph.os, "fsync", full_disk)
    r = runner.invoke(app, ["graph", str(tmp_path / "p.py"), "--output", str(out)])
    assert r.exit_code == 2 and "No space left" in r.stderr
    assert out.read_text() == OLD
    assert sorted(os.listdir(tmp_path)) == ["out.dot", "p.py"]


def test_killed_mid_write_keeps_the_old_output(tmp_path):
    # the child writes the whole graph, then stalls before its fsync/rename; SIGKILL it there
    (tmp_path / "p.py").write_text(PROGRAM)
    (tmp_path / "out.dot").write_text(OLD)
    marker = tmp_path.parent / (tmp_path.name + "-writing")
    code = (
        "import os, sys, time\nsys.path.insert(0, %r)\n"
        "def stall(fd):\n    open(%r, 'w').close()\n    time.sleep(120)\nos.fsync = stall\n"
        "from gradcli.cli import main\nsys.exit(main(['graph', 'p.py', '--output', 'out.dot']))\n"
    ) % (str(SRC), str(marker))
    child = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        assert marker.exists(), "the child never started writing"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
        marker.unlink(missing_ok=True)
    assert (tmp_path / "out.dot").read_text() == OLD
    assert sorted(os.listdir(tmp_path)) == ["out.dot", "p.py"]  # no temporary file either


BIG = ("x = torch.ones(3, requires_grad=True)\ny = x\nfor i in range(3000):\n    y = y * 1.0001\nz = y.sum()\n"
       "w = torch.arange(50000.)\n")  # a graph of 3,000 nodes; a run document of ~800 KB


@pytest.mark.parametrize("option, name, args", [
    ("--output", "out.dot", ["graph", "p.py", "--format", "dot", "--unroll", "--output", "out.dot"]),
    ("--snapshot", "snap.json", ["run", "p.py", "--snapshot", "snap.json"]),
])
def test_killed_half_way_through_the_bytes_keeps_the_old_file(tmp_path, option, name, args):
    # a large graph (3,000 nodes) / run document (~800 KB): the child writes half of the bytes to the temporary
    # file, syncs them to disk, and stalls; SIGKILL it there -- the old file is intact, nothing else is left
    (tmp_path / "p.py").write_text(BIG)
    (tmp_path / name).write_text(OLD)
    marker = tmp_path.parent / (tmp_path.name + "-half")
    code = (
        "import os, sys, time\nsys.path.insert(0, %r)\nreal = os.fdopen\n"
        "class Half:\n"
        "    def __init__(self, fh):\n        self.fh = fh\n"
        "    def __enter__(self):\n        return self\n"
        "    def __exit__(self, *a):\n        return self.fh.__exit__(*a)\n"
        "    def __getattr__(self, k):\n        return getattr(self.fh, k)\n"
        "    def write(self, data):\n"
        "        if len(data) > 100000:\n"
        "            self.fh.write(data[:len(data) // 2]); self.fh.flush(); os.fsync(self.fh.fileno())\n"
        "            open(%r, 'w').write(str(len(data)))\n            time.sleep(120)\n"
        "        return self.fh.write(data)\n"
        "def fdopen(fd, *a, **k):\n    return Half(real(fd, *a, **k))\nos.fdopen = fdopen\n"
        "from gradcli.cli import main\nsys.exit(main(%r))\n"
    ) % (str(SRC), str(marker), args)
    child = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        assert marker.exists(), f"the child never started writing {option}"
        assert int(marker.read_text() or 0) > 100000  # it really was in the middle of a large file
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
        marker.unlink(missing_ok=True)
    assert (tmp_path / name).read_text() == OLD
    assert sorted(os.listdir(tmp_path)) == sorted(["p.py", name])  # no temporary file either


def test_snapshot_is_never_the_input(runner, tmp_path):
    src = tmp_path / "p.py"
    src.write_text(PROGRAM)
    r = runner.invoke(app, ["run", str(src), "--snapshot", str(src)])
    assert r.exit_code == 2 and "input" in r.stderr and "--snapshot" in r.stderr
    link = tmp_path / "other.json"
    os.symlink(src, link)  # the same file under another name
    assert runner.invoke(app, ["run", str(src), "--snapshot", str(link)]).exit_code == 2
    assert src.read_text() == PROGRAM and sorted(os.listdir(tmp_path)) == ["other.json", "p.py"]


def test_output_through_a_link_keeps_the_link(runner, tmp_path):
    (tmp_path / "p.py").write_text(PROGRAM)
    (tmp_path / "real.dot").write_text(OLD)
    os.symlink("real.dot", tmp_path / "link.dot")
    r = runner.invoke(app, ["graph", str(tmp_path / "p.py"), "--output", str(tmp_path / "link.dot")])
    assert r.exit_code == 0, r.stderr
    assert os.readlink(tmp_path / "link.dot") == "real.dot"  # the link itself was not replaced
    assert (tmp_path / "real.dot").read_text().startswith("digraph")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_written_into_not_replaced(runner, tmp_path):
    # a FIFO or a device (/dev/stdout, /dev/full) named as --snapshot/--output: renaming over it would
    # delete the node (as root, the device itself); gradcli writes into it instead
    import threading

    (tmp_path / "p.py").write_text(PROGRAM)
    fifo = tmp_path / "snap.json"
    os.mkfifo(fifo)
    got: list = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = runner.invoke(app, ["run", str(tmp_path / "p.py"), "--snapshot", str(fifo)])
    reader.join(timeout=60)
    assert r.exit_code == 0, r.stderr
    assert json.loads(got[0])["schema"] == "gradcli.run/1"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and sorted(os.listdir(tmp_path)) == ["p.py", "snap.json"]


AUDIT = """
import contextlib, io, json, sys
sys.path.insert(0, %r)
events, armed = [], [False]
WATCH = ("open", "os.rename", "os.replace", "os.remove", "os.unlink", "os.link", "os.symlink", "os.mkdir",
         "os.rmdir", "os.truncate", "os.chmod", "os.chown", "shutil.copyfile", "subprocess.Popen", "os.system",
         "os.posix_spawn", "os.fork", "socket.connect", "socket.bind", "ctypes.dlopen")
def hook(name, args):
    if armed[0] and name in WATCH:
        events.append([name, [a if isinstance(a, (str, int)) or a is None else repr(a) for a in args]])
sys.addaudithook(hook)
from gradcli.cli import main
cmds = json.loads(sys.argv[1])
codes = []
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    for armed[0] in (False, True):  # the first pass does the lazy imports (they read installed files)
        for c in cmds:
            try:
                code = main(c)
            except SystemExit as e:
                code = e.code
            if armed[0]:
                codes.append(code)
    armed[0] = False
print(json.dumps({"codes": codes, "events": events}))
"""


@pytest.mark.skipif(not hasattr(os, "O_TMPFILE") or not hasattr(sys, "addaudithook"),
                    reason="Linux O_TMPFILE and audit hooks (Python 3.8+) are what this test observes")
def test_reads_only_its_file_and_writes_only_what_is_named(tmp_path):
    # every file-system, process and network action of the commands, seen by an audit hook in the process
    (tmp_path / "p.py").write_text(PROGRAM)
    cmds = [["graph", "p.py", "--output", "out.dot"], ["run", "p.py", "--snapshot", "s.json", "--json"],
            ["run", "p.py", "--trace", "--explain-vjp"], ["check", "p.py"], ["why", "p.py", "x"], ["lint", "p.py"],
            ["modes", "p.py"]]
    p = subprocess.run([sys.executable, "-c", AUDIT % str(SRC), json.dumps(cmds)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, NO_COLOR="1"))
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(p.stdout)
    assert doc["codes"] == [0] * len(cmds)
    folder = os.path.realpath(tmp_path)
    temps = set()
    for name, args in doc["events"]:
        if name == "open":
            path, mode, flags = args
            writes = mode is not None and any(c in mode for c in "wax+")
            if isinstance(path, int):
                continue  # os.fdopen of a descriptor opened (and checked) here
            elif not writes and (path == "p.py" or path == "/proc" or path.startswith("/proc/self/")):
                continue  # the input; live memory (/proc/self/status); linkat through /proc
            elif path == os.devnull:
                continue  # the watchdog's sink
            else:  # the output folder, opened only as an unnamed O_TMPFILE
                assert os.path.realpath(path) == folder and flags & os.O_TMPFILE == os.O_TMPFILE, (name, args)
        elif name == "os.link":
            assert os.path.dirname(args[1]) == folder and os.path.basename(args[1]).startswith(".gradcli-")
            temps.add(args[1])
        elif name in ("os.rename", "os.replace"):
            assert args[0] in temps and args[1] in (f"{folder}/out.dot", f"{folder}/s.json"), args
        else:
            raise AssertionError(f"unexpected action {name} {args}")
    assert len(temps) == 2 and sorted(os.listdir(tmp_path)) == ["out.dot", "p.py", "s.json"]
    assert (tmp_path / "p.py").read_text() == PROGRAM


def test_parallel_processes_share_nothing(tmp_path):
    work, home, tmp = tmp_path / "work", tmp_path / "home", tmp_path / "tmp"
    for d in (work, home, tmp):
        d.mkdir()
    (work / "p.py").write_text(PROGRAM)
    env = dict(os.environ, HOME=str(home), TMPDIR=str(tmp), XDG_CACHE_HOME=str(home / ".cache"),
               PYTHONPATH=str(SRC), PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1")
    cmds = [["graph", "p.py", "--format", "dot", "--output", f"g{i}.dot"] for i in range(4)]
    cmds += [["graph", "p.py", "--format", "dot", "--output", "same.dot"] for _ in range(3)]
    cmds += [["run", "p.py", "--json", "--snapshot", f"s{i}.json"] for i in range(3)]
    procs = [subprocess.Popen([sys.executable, "-m", "gradcli", *c], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for c in cmds]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(cmds), [o[1][-500:] for o in outs]
    reference = subprocess.run([sys.executable, "-m", "gradcli", "graph", "p.py", "--format", "dot"], cwd=work,
                               env=env, capture_output=True, timeout=120).stdout.decode()
    for name in [f"g{i}.dot" for i in range(4)] + ["same.dot"]:
        assert (work / name).read_text() == reference
    runs = {json.dumps(json.loads(text), sort_keys=True)
            for text in [o[0] for o in outs[-3:]] + [(work / f"s{i}.json").read_bytes() for i in range(3)]}
    assert len(runs) == 1  # the same JSON from each run, on stdout and in its --snapshot
    assert sorted(os.listdir(work)) == sorted(["p.py", "same.dot"] + [f"g{i}.dot" for i in range(4)]
                                              + [f"s{i}.json" for i in range(3)])
    assert os.listdir(home) == [] and os.listdir(tmp) == []  # no cache, config or temporary files


# --- numeric faults ----------------------------------------------------------------------------------------
NAN = "x = torch.tensor([0.0, 1.0], requires_grad=True)\ny = torch.sqrt(x)\nz = (y * 0).sum()\n"


def test_detect_anomaly_names_the_forward_line(runner):
    import json

    r = runner.invoke(app, ["run", "-", "--detect-anomaly", "--json"], input=NAN)
    assert r.exit_code == 1
    err = json.loads(r.stdout)["error"]
    assert err["kind"] == "runtime" and "SqrtBackward0" in err["message"] and "nan" in err["message"]
    assert err["line"] is None  # raised by the backward gradcli ran after the file
    assert {"role": "forward", "line": 2} == {k: err["related"][0][k] for k in ("role", "line")}
    human = runner.invoke(app, ["run", "-", "--detect-anomaly"], input=NAN)
    assert human.exit_code == 1 and "y = torch.sqrt(x)" in human.stdout and "forward" in human.stdout


@pytest.mark.parametrize("wrap", [
    "with torch.autograd.detect_anomaly():\n    z.backward()\n",
    "torch.autograd.set_detect_anomaly(True)\nz.backward()\n",
])
def test_anomaly_mode_in_the_file(runner, wrap):
    import json

    r = runner.invoke(app, ["run", "-", "--json"], input=NAN + wrap)
    err = json.loads(r.stdout)["error"]
    assert r.exit_code == 1 and err["kind"] == "runtime" and err["line"] in (5, 6)
    assert any(rel["role"] == "forward" and rel["line"] == 2 for rel in err["related"])


# the three files and PyTorch 2.13's outcome (python /work/shared/conformance/tools/torch_run.py FILE):
# the node named, the line of the backward call; check_nan=False runs through (grad [nan, 0.])
ANOMALY_PATHS = {
    "custom_function": ("class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n"
                        "        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n"
                        "        return g * float('nan')\nx = torch.ones(2, requires_grad=True)\n"
                        "with torch.autograd.detect_anomaly():\n    y = A.apply(x)\n    y.sum().backward()\n",
                        "Function 'ABackward' returned nan values in its 0th output", 11, 10),
    "inside_a_user_function": ("def f(t):\n    return torch.log(t) * 0\nx = torch.tensor([0.0, 1.0], requires_grad=True)\n"
                               "torch.autograd.set_detect_anomaly(True)\nz = f(x).sum()\n"
                               "g, = torch.autograd.grad(z, x)\n",
                               "Function 'LogBackward0' returned nan values in its 0th output", 6, 2),
}


@pytest.mark.parametrize("name", sorted(ANOMALY_PATHS))
def test_anomaly_paths_match_pytorch(runner, name):
    src, message, line, forward = ANOMALY_PATHS[name]
    r = runner.invoke(app, ["run", "-", "--json"], input=src)
    err = json.loads(r.stdout)["error"]
    assert r.exit_code == 1 and err["kind"] == "runtime" and err["message"].startswith(message)
    assert err["line"] == line and any(rel["role"] == "forward" and rel["line"] == forward for rel in err["related"])


def test_anomaly_mode_without_check_nan_runs_through(runner):
    src = NAN + "with torch.autograd.detect_anomaly(check_nan=False):\n    z.backward()\nprint(x.grad)\n"
    r = runner.invoke(app, ["run", "-", "--json"], input=src)
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["stdout"] == "tensor([nan, 0.])\n"  # PyTorch 2.13 prints the same


def test_nan_and_inf_in_gradients_are_flagged_in_the_table(runner):
    src = NAN + "w = torch.tensor([1.0, 2.0], requires_grad=True)\nv = (w / 0).sum()\nv.backward()\nz.backward()\n"
    r = runner.invoke(app, ["run", "-"], input=src, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.stdout
    rows: dict = {}
    for line in r.stdout.splitlines():  # the values table's rows (the why table after it has rows per name too)
        if line.split()[:1] in (["x"], ["w"], ["y"]) and "[" in line:
            rows.setdefault(line.split()[0], line)
    assert "[nan!]" in rows["x"] and "[inf!]" in rows["w"]
    assert "!]" not in rows.get("y", "")


def test_ctrl_c_during_a_long_engine_operation_exits_promptly(tmp_path):
    # the run's thread is inside BLAS; the interrupt reaches the waiting main thread within a slice
    (tmp_path / "long.py").write_text("a = torch.ones(5000, 5000)\nfor i in range(100):\n    b = a @ a\n")
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    p = subprocess.Popen([sys.executable, "-m", "gradcli", "run", "long.py"], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        assert p.returncode == 130 and time.monotonic() - t0 < 10
        assert b"Traceback" not in out + err
    finally:
        if p.poll() is None:
            p.kill()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_endless_input_is_read_only_up_to_the_size_limit(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    p = subprocess.run([sys.executable, "-m", "gradcli", "run", "/dev/zero", "--json"], capture_output=True,
                       timeout=120, env=env)
    assert p.returncode == 1 and b'"kind": "limit"' in p.stdout
    endless = subprocess.Popen(["yes", "x = 1"], stdout=subprocess.PIPE)
    try:
        p = subprocess.run([sys.executable, "-m", "gradcli", "run", "-", "--json"], stdin=endless.stdout,
                           capture_output=True, timeout=120, env=env)
    finally:
        endless.kill()
        endless.wait()
    assert p.returncode == 1 and b'"kind": "limit"' in p.stdout


# --- anomaly mode's forward origin and NaN-gradient notes, on real snippets (issue 23, must-have 5) ------
_REAL = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets"


@pytest.mark.parametrize("snippet, line, op", [
    ("gh_issues__issue_108618_where_log2_nan", 8, "log2"),      # log2(0) = -inf in the unselected branch
    ("gh_issues__issue_68425_where_exp_overflow", 4, "exp"),    # exp(100) overflows float32
    ("gh_issues__issue_18287_where_cos_inf", 6, "cos"),         # cos(inf) = NaN
])
def test_detect_anomaly_shows_the_forward_origin(runner, run_schema, snippet, line, op):
    import json

    path = str(_REAL / f"{snippet}.py")
    r = runner.invoke(app, ["run", path, "--detect-anomaly", "--json"])
    doc = json.loads(r.stdout)
    run_schema.validate(doc)
    assert [(o["line"], o["op"]) for o in doc["forward_nonfinite"]][:1] == [(line, op)]
    human = runner.invoke(app, ["run", path, "--detect-anomaly"])
    text = " ".join(human.stdout.split())
    if "returned nan values" in text:  # the backward failed: the error panel names the origin, with its line
        first = f"first {'inf' if doc['forward_nonfinite'][0]['kind'] == 'inf' else 'NaN'}"
        assert first in text and f"{line} | " in text.split(first, 1)[1][:400]
    else:
        assert "forward origin of NaN/inf (anomaly mode)" in text and f"line {line}" in text
    assert f"{op} (" in text
    plain = runner.invoke(app, ["run", path, "--json"])
    assert "forward_nonfinite" not in json.loads(plain.stdout)


@pytest.mark.parametrize("snippet, name", [
    ("gh_issues__issue_108618_where_log2_nan", "x1"),
    ("gh_issues__issue_68425_where_exp_overflow", "a"),
    ("qa_semantics__forum_mse_sqrt_nan_94875", "x"),
])
def test_nan_gradient_note_in_run_and_why(runner, run_schema, snippet, name):
    import json

    path = str(_REAL / f"{snippet}.py")
    doc = json.loads(runner.invoke(app, ["run", path, "--json"]).stdout)
    run_schema.validate(doc)
    why = next(t for t in doc["tensors"] if t["name"] == name)["why"]
    assert why["kind"] == "nonfinite_gradient" and why["grad"] == "NaN" and why["line"] is not None
    human = runner.invoke(app, ["run", path])
    assert "why no gradient, or a NaN/inf one" in human.stdout and "nonfinite_gradient" in human.stdout
    panel = runner.invoke(app, ["why", path, name])
    assert panel.exit_code == 0 and f"why does {name}.grad hold NaN?" in panel.stdout
