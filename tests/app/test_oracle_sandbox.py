"""The process walls of compare's PyTorch side (``gradcli.app.oracle_sandbox``), each seen from inside a child.

Every test forks a child that applies one wall (or all of them) and then tries what the wall stops:
writing a file, connecting to a TCP server the test listens on, spinning past its CPU limit,
allocating past its address space, keeping descriptors.  The child reports back through a pipe;
the test also checks from outside (the file does not exist, the server accepted nothing).  The
machine-dependent branches (namespaces, ``resource``, ``/proc``, ``fork``) are forced both ways.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import sys
import time

import pytest

from gradcli.app import oracle_sandbox as sandbox

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the children of these tests are forked")


def _in_child(fn, timeout: float = 30.0) -> tuple:
    """Run ``fn()`` (returns JSON data) in a forked child; (its value or None, wait status).  ``fn`` may
    take one argument: the descriptor of the pipe back (to keep when it closes descriptors)."""
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(r)
            import inspect

            value = fn(w) if inspect.signature(fn).parameters else fn()
            out = json.dumps({"value": value}).encode()
        except BaseException as e:  # noqa: BLE001 - report anything
            out = json.dumps({"error": f"{type(e).__name__}: {e}"}).encode()
            code = 3
        try:
            os.write(w, out)
        finally:
            os._exit(code)
    os.close(w)
    deadline = time.monotonic() + timeout
    chunks = []
    while True:
        import select

        ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    data = b"".join(chunks)
    answer = json.loads(data) if data else None
    if answer is not None and "error" in answer:
        raise AssertionError(f"the child failed: {answer['error']}")
    return (answer["value"] if answer else None), status


@pytest.fixture
def workdir():
    path = sandbox.make_workdir()
    yield path
    sandbox.collect_workdir(path)


@pytest.fixture
def server():
    """A TCP server on 127.0.0.1 that counts the connections it accepted."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.setblocking(False)

    def accepted() -> int:
        n = 0
        while True:
            try:
                c, _ = srv.accept()
            except (BlockingIOError, OSError):
                return n
            c.close()
            n += 1

    yield srv.getsockname()[1], accepted
    srv.close()


def _connect(port: int) -> str:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=3)
    except OSError as e:
        return f"refused: {type(e).__name__}: {e}"
    s.close()
    return "connected"


# --- the working folder ------------------------------------------------------------------------------------
def test_workdir_is_fresh_read_only_and_removed():
    path = sandbox.make_workdir()
    assert os.listdir(path) == []
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o555
    os.chmod(path, 0o755)  # as a hole in the walls would leave something behind
    open(os.path.join(path, "left.txt"), "w").close()
    os.chmod(path, 0o555)
    assert sandbox.collect_workdir(path) == ["left.txt"]
    assert not os.path.exists(path)


# --- the network -------------------------------------------------------------------------------------------
def test_isolated_child_reaches_no_address(server):
    port, accepted = server

    def child():
        report = sandbox.isolate()
        return report, _connect(port)

    (report, outcome), _ = _in_child(child)
    if report["network"] != "isolated":
        pytest.skip(f"this machine gives no unprivileged network namespace ({report['network']}); "
                    "test_network_branch_forced covers the report")
    assert outcome.startswith("refused"), outcome
    assert accepted() == 0
    assert report["session"] == "own"


def test_network_branch_forced(server, monkeypatch):
    """Without namespaces (forced), the report says so -- and tells the truth: the connection goes through."""
    port, accepted = server
    monkeypatch.setattr(sandbox, "_unshare", lambda flags: "forced off by the test")

    def child():
        return sandbox.isolate(), _connect(port)

    (report, outcome), _ = _in_child(child)
    assert report["network"] == "not isolated: forced off by the test"
    assert outcome == "connected"
    assert accepted() == 1


def test_no_setsid_branch_forced(monkeypatch):
    monkeypatch.delattr(os, "setsid")
    monkeypatch.setattr(sandbox, "_unshare", lambda flags: "forced off by the test")
    value, _ = _in_child(sandbox.isolate)
    assert value == {"session": "shared: no setsid", "network": "not isolated: forced off by the test"}


def test_unshare_probe_off_linux(monkeypatch):
    monkeypatch.setattr(sandbox.sys, "platform", "darwin")
    assert sandbox._unshare(sandbox.CLONE_NEWNET) == "no namespaces on darwin"


def test_unshare_probe_through_libc_before_python_312(monkeypatch):
    """Pythons before 3.12 have no os.unshare: libc's is called (in a child: it changes the process)."""
    monkeypatch.delattr(os, "unshare", raising=False)
    value, _ = _in_child(lambda: sandbox._unshare(sandbox.CLONE_NEWUSER | sandbox.CLONE_NEWNET))
    assert value is None or value.startswith("unshare refused")


# --- folder, descriptors, limits ---------------------------------------------------------------------------
def test_confined_child(workdir):
    keep_r, keep_w = os.pipe()
    extra = os.open(os.devnull, os.O_RDONLY)  # inherited from the parent: must be closed in the child
    try:
        def child(pipe):
            report = sandbox.confine(workdir, keep_fds=(keep_w, pipe), cpu_seconds=7.5, memory=1 << 30)
            import resource

            fds = sorted(int(n) for n in os.listdir("/proc/self/fd"))
            return {"report": report, "cwd": os.getcwd(), "fds": fds,
                    "fsize": resource.getrlimit(resource.RLIMIT_FSIZE), "core": resource.getrlimit(resource.RLIMIT_CORE),
                    "cpu": resource.getrlimit(resource.RLIMIT_CPU), "bytecode": sys.dont_write_bytecode,
                    "stdout": os.readlink("/proc/self/fd/1")}

        value, status = _in_child(child)
    finally:
        for fd in (keep_r, keep_w, extra):
            os.close(fd)
    assert status == 0
    assert value["cwd"] == os.path.realpath(workdir)
    # 0-2 (/dev/null), the kept descriptors, and the one listdir used for /proc/self/fd
    others = set(value["fds"]) - {0, 1, 2, keep_w}
    assert len(others) == 2, value["fds"]  # the pipe back, and listdir's own
    assert extra not in others
    assert value["stdout"] == "/dev/null"
    assert value["fsize"] == [0, 0] and value["core"] == [0, 0]
    assert value["cpu"] == [9, 10]  # ceil(7.5) + 1, hard one more
    assert value["bytecode"] is True
    assert value["report"]["limits"]["RLIMIT_AS"] > 1 << 30
    assert value["report"]["fds_closed"] >= 1


def test_file_size_limit_stops_every_write(workdir, tmp_path):
    target = tmp_path / "written"

    def child(pipe):
        sandbox.confine(workdir, keep_fds=(pipe,), cpu_seconds=10)
        fd = os.open(str(target), os.O_WRONLY | os.O_CREAT)
        try:
            os.write(fd, b"x")
        except OSError as e:
            return e.errno
        return "wrote"

    value, _ = _in_child(child)
    import errno

    assert value == errno.EFBIG
    assert target.stat().st_size == 0  # created empty at most (the audit hook refuses the open itself)


def test_cpu_limit_ends_a_spinning_child(workdir):
    def child():
        sandbox.confine(workdir, cpu_seconds=0.5)
        while True:
            pass

    start = time.monotonic()
    value, status = _in_child(child, timeout=60)
    assert value is None
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL)
    assert time.monotonic() - start < 30


def test_address_space_limit(workdir):
    def child(pipe):
        sandbox.confine(workdir, keep_fds=(pipe,), cpu_seconds=10, memory=256 << 20)
        try:
            b = bytearray(2 << 30)
        except MemoryError:
            return "MemoryError"
        return len(b)

    value, _ = _in_child(child)
    assert value == "MemoryError"


def test_no_resource_module_branch_forced(workdir, monkeypatch):
    monkeypatch.setattr(sandbox, "_resource", lambda: None)
    value, _ = _in_child(lambda pipe: sandbox.confine(workdir, keep_fds=(pipe,), cpu_seconds=5))
    assert value["limits"] == "none: no resource module"


def test_unknown_address_space_branch_forced(workdir, monkeypatch):
    monkeypatch.setattr(sandbox, "_address_space", lambda: None)
    value, _ = _in_child(lambda pipe: sandbox.confine(workdir, keep_fds=(pipe,), cpu_seconds=5))
    assert value["limits"]["RLIMIT_AS"] == "not set: address space unknown"
    assert value["limits"]["RLIMIT_FSIZE"] == 0


def test_descriptors_closed_without_proc_branch_forced(workdir, monkeypatch):
    extra = os.open(os.devnull, os.O_RDONLY)
    real_listdir = os.listdir

    def no_proc(path="."):
        if str(path).startswith("/proc"):
            raise FileNotFoundError(path)
        return real_listdir(path)

    try:
        def child(pipe):
            sandbox.os.listdir = no_proc
            sandbox.confine(workdir, keep_fds=(pipe,), cpu_seconds=5)
            try:
                os.fstat(extra)
            except OSError:
                return "closed"
            return "open"

        value, _ = _in_child(child)
    finally:
        os.close(extra)
    assert value == "closed"


# --- the audit hook ----------------------------------------------------------------------------------------
ROOTS = ("/usr/lib/python3/",)


@pytest.mark.parametrize("event,args,refused", [
    ("open", ("/usr/lib/python3/x.py", "r", 0), False),
    ("open", ("/usr/lib/python3/x.py", "rb", os.O_RDONLY), False),
    ("open", ("/usr/lib/python3/x.py", "w", 0), True),
    ("open", ("/tmp/x", "a", 0), True),
    ("open", ("/tmp/x", None, os.O_WRONLY | os.O_CREAT), True),
    ("open", ("/tmp/x", None, os.O_RDWR), True),
    ("open", ("/etc/passwd", "r", 0), True),
    ("open", (7, "r", 0), True),
    ("open", ("/dev/null", "r", 0), False),
    ("open", ("/proc/self/statm", "rb", 0), False),
    ("os.listdir", ("/",), True),
    ("os.listdir", (".",), False),
    ("os.scandir", ("/usr/lib/python3/",), False),
    ("os.system", (b"touch x",), True),
    ("subprocess.Popen", ("sh", ["sh"], None, None), True),
    ("os.fork", (), True),
    ("os.posix_spawn", ("sh", [], {}), True),
    ("socket.connect", (None, ("1.1.1.1", 80)), True),
    ("socket.getaddrinfo", ("example.com", 80, 0, 0, 0), True),
    ("urllib.Request", ("http://x", None, {}, "GET"), True),
    ("ctypes.dlopen", ("libc.so.6",), True),
    ("pickle.find_class", ("os", "system"), True),
    ("os.remove", ("/tmp/x", -1), True),
    ("os.rename", ("/tmp/x", "/tmp/y", -1, -1), True),
    ("os.mkdir", ("/tmp/gradcli-no-such-folder-i24", 511, -1), True),
    ("os.mkdir", (os.path.dirname(os.__file__), 511, -1), False),  # makedirs(exist_ok=True) of a folder there
    ("os.mkdir", (os.path.dirname(os.__file__), 511, 3), True),  # relative to a descriptor: not judged
    ("os.mkdir", (os.__file__, 511, -1), True),  # a file, not a folder
    ("shutil.rmtree", ("/tmp/x",), True),
    ("code.__new__", (), True),
    ("gc.get_objects", (0,), True),
    ("resource.setrlimit", (1, (1, 1)), True),
    ("import", ("torch._dynamo", None, None, None, None), False),
    ("exec", (None,), False),
    ("marshal.loads", (b"",), False),
])
def test_audit_verdicts(event, args, refused):
    assert (sandbox._verdict(event, args, ROOTS) is not None) is refused


def test_audit_hook_refuses_and_records(tmp_path, server):
    port, accepted = server
    target = tmp_path / "w.txt"

    def child():
        report: dict = {}
        sandbox.audit_hook(report)
        outcomes = []
        with open(__file__) as fh:  # a loaded module's own file: what a formatted traceback reads
            fh.read(1)
        for attempt in (lambda: open(target, "w"), lambda: os.system("true"), lambda: _connect(port),
                        lambda: __import__("ctypes").CDLL(None), lambda: open("/etc/hostname")):
            try:
                r = attempt()
                outcomes.append(r if isinstance(r, str) else "done")
            except sandbox.SandboxRefusal:
                outcomes.append("refused")
        seen: list = []
        sys.addaudithook(lambda *a: seen.append(a))  # refused (CPython then drops it silently)
        open(os.devnull).close()
        if not seen:
            outcomes.append("no second hook")
        return outcomes, report

    (outcomes, report), _ = _in_child(child)
    assert outcomes[:2] == ["refused", "refused"]
    assert outcomes[2].startswith("refused") and accepted() == 0
    assert outcomes[3:] == ["refused", "refused", "no second hook"]
    assert not target.exists()
    assert report["audit"] is True and len(report["refused"]) == 6
    assert report["refused"][0].startswith("open(") and "for writing" in report["refused"][0]


def test_read_roots_hold_the_installation():
    roots = sandbox.read_roots()
    assert any(os.path.realpath(sys.prefix).startswith(r.rstrip("/")) or r.startswith(os.path.realpath(sys.prefix))
               for r in roots)
    import gradcli

    src = os.path.realpath(os.path.dirname(os.path.dirname(gradcli.__file__)))
    assert any((src + "/").startswith(r) for r in roots)
    assert "/" not in roots
