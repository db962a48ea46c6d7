"""The process walls of ``gradcli compare``'s PyTorch side: defence in depth behind the language walls.

:mod:`.oracle_walls` keeps a file within gradcli's surface; this module limits what the process
running it could do if those walls had a hole (a path inside PyTorch's own code, a memory-safety
bug).  The PyTorch side runs in a process of its own -- forked from gradcli, or a fresh interpreter
where ``fork`` is missing -- which, before the file runs:

1. :func:`isolate`: becomes a session of its own (``setsid``: the parent ends it and anything it
   started with one signal), and leaves the network where the machine allows it without root: a
   new user and network namespace (``os.unshare(CLONE_NEWUSER | CLONE_NEWNET)``, through libc on
   Pythons before 3.12), whose only interface is a loopback that is down -- no address is reachable;
2. :func:`confine`: works in a fresh empty folder (:func:`make_workdir`, mode 0555: a process
   without root, or in its own user namespace, cannot create anything in it; the parent lists what
   is left there and removes it, :func:`collect_workdir`), holds no file descriptor but its pipe to
   the parent (stdin, stdout and stderr are ``/dev/null`` in a forked child), and runs under
   resource limits: ``RLIMIT_CORE`` 0, ``RLIMIT_FSIZE`` 0 (``SIGXFSZ`` ignored, so writing a byte to
   any file fails with ``EFBIG``), ``RLIMIT_CPU`` (the timeout), ``RLIMIT_AS`` (its address space now
   plus the run's memory budget); it writes no bytecode;
3. :func:`audit_hook`: a ``sys.addaudithook`` hook refuses, for the rest of the process's life, what
   Python-level code could do outside the process: starting processes, sockets and URL fetches,
   opening a file for writing (or, for reading, outside Python's and the installed packages'
   folders, the fresh one and the loaded modules' own files), changing the file system, ``ctypes``, unpickling (``pickle.find_class``), building code
   objects, ``gc`` walks, ``mmap``, new resource limits.  A refusal raises ``PermissionError`` (kind
   ``runtime``) and is recorded; the PyTorch side reports it.

Each step reports what it did (:func:`isolate` and :func:`confine` return dicts that end up in the
oracle's answer), because each depends on the machine: ``setsid``/``unshare``/``resource``/
``/proc`` may be missing or refused; the tests force each branch both ways (``_unshare`` and
``_resource`` are the probes).  SECURITY.md says what is and is not guaranteed where.
"""

from __future__ import annotations

import math
import os
import signal
import stat
import sys
import tempfile
from typing import Any, Callable, Optional

__all__ = ["make_workdir", "collect_workdir", "isolate", "confine", "audit_hook", "SandboxRefusal"]

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
#: memory a run may use when the options name none (gradcli's own default, lang.limits.Limits.max_memory)
DEFAULT_MEMORY = 4 << 30
#: most refused events a child records
MAX_EVENTS = 50


class SandboxRefusal(PermissionError):
    """An action the process walls refuse (an audit event): kind ``runtime``."""

    wall_kind = "runtime"


# --------------------------------------------------------------------------------------------
# the working folder (parent side)
# --------------------------------------------------------------------------------------------
def make_workdir() -> str:
    """A fresh empty folder for one child, read-only (0555) so that nothing can be created in it."""
    path = tempfile.mkdtemp(prefix="gradcli-compare-")
    os.chmod(path, stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    return path


def collect_workdir(path: str) -> list[str]:
    """The names left in ``path`` by the child (``[]`` when the walls held), then remove it."""
    import shutil

    try:
        left = sorted(os.listdir(path))
    except OSError:
        left = []
    try:
        os.chmod(path, stat.S_IRWXU)
        shutil.rmtree(path, ignore_errors=True)
    except OSError:  # pragma: no cover - a folder already gone
        pass
    return left


# --------------------------------------------------------------------------------------------
# machine probes (forced both ways in tests)
# --------------------------------------------------------------------------------------------
def _unshare(flags: int) -> Optional[str]:
    """Enter new namespaces: None when done, else why not (no such call, refused by the kernel)."""
    if not sys.platform.startswith("linux"):
        return f"no namespaces on {sys.platform}"
    fn = getattr(os, "unshare", None)
    if fn is not None:  # Python >= 3.12
        try:
            fn(flags)
            return None
        except OSError as e:
            return f"unshare refused: {e.strerror or e}"
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(flags) == 0:
            return None
        err = ctypes.get_errno()
        return f"unshare refused: {os.strerror(err)}"
    except (OSError, AttributeError) as e:
        return f"no unshare call: {e}"


def _resource() -> Any:
    """The ``resource`` module, or None where it does not exist (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    return resource


def _address_space() -> Optional[int]:
    """Bytes of address space this process holds now (``/proc/self/statm``), or None where unreadable."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            pages = int(fh.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


# --------------------------------------------------------------------------------------------
# the child
# --------------------------------------------------------------------------------------------
def isolate() -> dict:
    """Own session and no network (as far as the machine allows); call while the process has one thread."""
    report: dict = {}
    if hasattr(os, "setsid"):
        try:
            os.setsid()
            report["session"] = "own"
        except OSError as e:  # already a group leader
            report["session"] = f"shared: {e.strerror}"
    else:
        report["session"] = "shared: no setsid"
    why = _unshare(CLONE_NEWUSER | CLONE_NEWNET)
    report["network"] = "isolated" if why is None else f"not isolated: {why}"
    return report


def _close_fds(keep: set) -> int:
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        res = _resource()
        top = min(res.getrlimit(res.RLIMIT_NOFILE)[0], 1 << 16) if res else 256
        fds = list(range(3, top))
    closed = 0
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
                closed += 1
            except OSError:
                pass
    return closed


def confine(workdir: str, *, keep_fds: tuple = (), null_fds: tuple = (0, 1, 2), cpu_seconds: float = 60.0,
            memory: Optional[int] = None) -> dict:
    """Fresh folder, no descriptors but ``keep_fds``, resource limits; returns what was applied."""
    report: dict = {"workdir": workdir}
    os.chdir(workdir)
    # PyTorch's compile cache (``import torch._dynamo``, which torch.optim's first param group triggers,
    # creates it) is the fresh folder: it exists, so the import needs no new folder, and nothing lands there
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = workdir
    sys.dont_write_bytecode = True
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in null_fds:
        if fd not in keep_fds:
            os.dup2(devnull, fd)
    keep = set(keep_fds) | set(null_fds)
    report["fds_closed"] = _close_fds(keep)
    res = _resource()
    limits: dict = {}
    if res is None:
        report["limits"] = "none: no resource module"
        return report
    cpu = int(math.ceil(cpu_seconds)) + 1

    def setlimit(name: str, soft: int, hard: int) -> None:
        which = getattr(res, name, None)
        if which is None:
            return
        try:
            cur_soft, cur_hard = res.getrlimit(which)
            if cur_hard != res.RLIM_INFINITY:
                hard = min(hard, cur_hard)
                soft = min(soft, hard)
            res.setrlimit(which, (soft, hard))
            limits[name] = soft
        except (OSError, ValueError) as e:
            limits[name] = f"not set: {e}"

    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
    setlimit("RLIMIT_CORE", 0, 0)
    setlimit("RLIMIT_FSIZE", 0, 0)
    setlimit("RLIMIT_CPU", cpu, cpu + 1)
    now = _address_space()
    if now is not None:
        budget = now + (memory if memory else DEFAULT_MEMORY)
        setlimit("RLIMIT_AS", budget, budget)
    else:
        limits["RLIMIT_AS"] = "not set: address space unknown"
    report["limits"] = limits
    return report


# --------------------------------------------------------------------------------------------
# the audit hook
# --------------------------------------------------------------------------------------------
_REFUSED_EVENTS = frozenset({
    # processes
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.startfile",
    "subprocess.Popen", "pty.spawn", "os.kill", "os.killpg",
    # the file system
    "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.link", "os.symlink",
    "os.truncate", "os.utime", "os.chflags", "os.lchflags", "os.setxattr", "os.removexattr", "os.chdir",
    "os.mkfifo", "os.mknod", "tempfile.mkstemp", "tempfile.mkdtemp",
    # code and memory
    "pickle.find_class", "code.__new__", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "mmap.__new__", "resource.setrlimit", "resource.prlimit", "sys.addaudithook", "builtins.input",
    "builtins.breakpoint", "webbrowser.open",
})
_REFUSED_PREFIXES = ("socket.", "urllib.", "http.client.", "ftplib.", "smtplib.", "poplib.", "imaplib.",
                     "nntplib.", "telnetlib.", "ctypes.", "shutil.", "fcntl.", "msvcrt.", "winreg.", "_winapi.",
                     "syslog.", "sqlite3.")
_READ_EVENTS = frozenset({"os.listdir", "os.scandir", "glob.glob", "glob.glob/2", "os.listxattr", "os.getxattr"})


def read_roots() -> tuple:
    """Folders the child may read: Python's own, the site folders and the installed gradcli/torch/numpy."""
    import site

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    try:
        roots.update(site.getsitepackages())
    except AttributeError:  # pragma: no cover - a virtualenv without getsitepackages
        pass
    for name in ("gradcli", "torch", "numpy"):
        mod = sys.modules.get(name)
        f = getattr(mod, "__file__", None)
        if isinstance(f, str):
            roots.add(os.path.dirname(os.path.dirname(f)))
    out = set()
    for r in roots:
        if isinstance(r, str) and r and os.path.isdir(r):
            real = os.path.realpath(r)
            if real != os.sep:
                out.add(real.rstrip(os.sep) + os.sep)
    return tuple(sorted(out))


def loaded_sources() -> frozenset:
    """The files of the modules loaded now: the source lines a traceback of this process shows
    (``torch.manual_seed`` formats the stack, and linecache reads every frame's file)."""
    out = set()
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        if isinstance(f, str):
            out.add(os.path.realpath(f))
    return frozenset(out)


def _under(path: Any, roots: tuple, files: frozenset = frozenset()) -> bool:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return False
    if os.path.abspath(path).startswith("/proc/self/"):  # the process's own facts (statm, status)
        return True
    real = os.path.realpath(path)
    return real in ("/dev/null", "/dev/urandom") or real.startswith(f"/proc/{os.getpid()}/") or \
        (real + os.sep).startswith(roots) or real in files


def _existing_folder(path: Any) -> bool:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    return isinstance(path, str) and os.path.isdir(path)


def _verdict(event: str, args: tuple, roots: tuple, files: frozenset = frozenset()) -> Optional[str]:
    """Why ``event`` is refused, or None (``roots``: folders that may be read; ``files``: files that may be)."""
    if event == "os.mkdir" and len(args) > 2 and args[2] in (None, -1) and _existing_folder(args[0]):
        return None  # ``os.makedirs(path, exist_ok=True)`` of a folder that is there changes nothing (EEXIST)
    if event in _REFUSED_EVENTS or event.startswith(_REFUSED_PREFIXES):
        return event
    if event == "open":
        path = args[0] if args else None
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
        writes = isinstance(mode, str) and bool(set(mode) & set("wax+"))
        writes = writes or bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
        if writes:
            return f"open({path!r}, {mode!r}) for writing"
        if not _under(path, roots, files):
            return f"open({path!r}) outside the installation"
        return None
    if event in _READ_EVENTS:
        path = args[0] if args else None
        if path in (None, ".", b".", os.curdir):
            return None
        if isinstance(path, int) or not _under(path, roots):
            return f"{event}({path!r}) outside the installation"
    return None


def audit_hook(report: dict, roots: Optional[tuple] = None) -> Callable[[str, tuple], None]:
    """Install the hook (for the rest of the process's life); refused events go to ``report["refused"]``."""
    roots = read_roots() if roots is None else roots
    here = os.path.realpath(os.getcwd()).rstrip(os.sep) + os.sep  # the fresh, empty folder (linecache looks there)
    roots = tuple(roots) + (here,) if here != os.sep else tuple(roots)
    files = loaded_sources()
    refused = report.setdefault("refused", [])
    busy = [False]

    def hook(event: str, args: tuple) -> None:
        if busy[0]:  # the hook's own work (realpath) raises no refusal
            return
        busy[0] = True
        try:
            why = _verdict(event, args, roots, files)
        finally:
            busy[0] = False
        if why is None:
            return
        if len(refused) < MAX_EVENTS:
            refused.append(why[:300])
        raise SandboxRefusal(f"gradcli compare's PyTorch side may not do this: {why}")

    sys.addaudithook(hook)
    report["audit"] = True
    return hook
