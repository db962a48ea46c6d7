"""Resource limits of one run, and their enforcement (SPEC §3 ``--max-*``, ``--timeout``).

Two things live here:

* :class:`Limits` -- the static configuration: generous but finite defaults,
  overridable per run through :class:`gradcli.lang.result.RunOptions`.
* :class:`Budget` -- the runtime side: a step counter (loop iterations and
  user-function calls), a wall-clock deadline and the live memory checked
  cheaply every :data:`CHECK_EVERY` steps, the user call depth and the size of
  the printed output.

Every limit that is hit raises a ``limit`` :class:`~gradcli.errors.GradcliError`
whose message names the limit and whose hint names the command-line option
that raises it (:func:`limit_error`).

The hot path is ``tick[0] -= 1; if tick[0] <= 0: budget.refill()`` inlined in
the interpreter's loop and call closures: one list-item decrement and a compare
per step; the expensive checks (total steps, clock) run once per chunk.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable, Optional

from ..errors import GradcliError, error_class

__all__ = ["Limits", "Budget", "limit_error", "DEFAULT_LIMITS", "CHECK_EVERY", "start_command", "end_command",
           "command_deadline", "run_started", "EXPIRED"]

#: steps between two checks of the total step count and of the clock
CHECK_EVERY = 256


@dataclass(frozen=True)
class Limits:
    """Resource limits of a run (all finite).

    max_source_bytes: size of the file, checked before parsing (``--max-source``).
    max_nesting: bracket nesting depth, checked by a scan before ``ast.parse`` (``--max-depth``).
    max_ast_depth: depth of the syntax tree (statements and expressions; ``--max-depth`` sets it to twice
        the bracket depth).
    max_steps: loop iterations + user-function calls (``--max-steps``).
    timeout: wall-clock seconds (``--timeout``).
    max_call_depth: nesting of user-function calls (recursion; ``--max-call-depth``).
    max_output: characters ``print`` may write (``--max-output``).
    max_elements: largest tensor (passed to the engine) and largest Python
        sequence/string a program may build (``--max-elements``).
    max_memory: bytes of live memory the run may hold -- tensors, graph, Python
        objects (``--max-memory``; passed to the engine, also checked with the clock).
    max_int_bits: size of a Python int built by ``*``, ``**`` or ``<<``.
    max_format_width: width/precision in a format spec (``f"{x:1000000}"``).
    """

    max_source_bytes: int = 1_000_000
    max_nesting: int = 100
    max_ast_depth: int = 200
    max_steps: int = 10_000_000
    timeout: float = 60.0
    max_call_depth: int = 200
    max_output: int = 10_000_000
    max_elements: int = 100_000_000
    max_memory: int = 4 << 30
    max_int_bits: int = 1_000_000
    max_format_width: int = 10_000

    def with_options(self, options) -> "Limits":
        """These limits, overridden by the non-None limit fields of a RunOptions.

        Raises :class:`gradcli.lang.run.InvocationError` (exit status 2) for a value that is no limit:
        a NaN or negative ``--timeout`` (``--timeout nan`` ran and reported "a time limit of nan s"), a
        count below 1.
        """
        changes = {}
        for field in ("max_steps", "timeout", "max_elements", "max_call_depth", "max_output", "max_source_bytes",
                      "max_memory", "max_depth"):
            value = getattr(options, field, None)
            if value is not None:
                if field == "timeout":
                    bad = isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0
                else:
                    bad = isinstance(value, bool) or not isinstance(value, int) or value < 1
                if bad:
                    from .run import InvocationError

                    what = "a number of seconds, 0 or more" if field == "timeout" else "a whole number, 1 or more"
                    option = _OPTION_NAMES.get(field, field)
                    raise InvocationError(f"bad {option} {value!r}: expected {what}")
                if field == "max_depth":  # one option for both depths of an expression (see _DEPTH_RATIO)
                    changes["max_nesting"] = value
                    changes["max_ast_depth"] = _DEPTH_RATIO * value
                else:
                    changes[field] = value
        return replace(self, **changes) if changes else self


DEFAULT_LIMITS = Limits()

#: ``--max-depth N`` allows brackets nested N deep and a syntax tree 2N deep (the defaults' ratio: an
#: expression level is about two tree levels, e.g. Call -> Attribute, BinOp -> operand)
_DEPTH_RATIO = 2

# the option (or RunOptions field) of each limit, in invocation errors
_OPTION_NAMES = {"max_steps": "--max-steps", "timeout": "--timeout", "max_elements": "--max-elements",
                 "max_memory": "--max-memory", "max_call_depth": "--max-call-depth", "max_output": "--max-output",
                 "max_source_bytes": "--max-source", "max_depth": "--max-depth"}

# what raises each limit (shown in the hint)
_OPTIONS = {
    "max_steps": "Raise it with --max-steps N if the program really needs more.",
    "timeout": "Raise it with --timeout SECONDS if the program really needs longer.",
    "max_elements": "Raise it with --max-elements N if the program really needs more.",
    "max_memory": "Raise it with --max-memory SIZE (e.g. --max-memory 8G) if the program really needs more.",
    "max_call_depth": "Write the recursion as a loop, or raise the limit with --max-call-depth N.",
    "max_output": "Print less, or raise the limit with --max-output N (characters).",
    "max_source_bytes": "Split the file, or raise the limit with --max-source SIZE (e.g. --max-source 4M).",
    "max_nesting": "Split the expression into smaller statements with intermediate names, or raise the limit "
                   "with --max-depth N.",
    "max_ast_depth": "Split the expression into smaller statements with intermediate names, or raise the limit "
                     "with --max-depth N.",
    "max_int_bits": "Use a float or a tensor for numbers this large.",
    "max_int_digits": "Use a float or a tensor for numbers this large, or print them in parts.",
    "max_format_width": "Use a smaller width or precision in the format spec.",
}


#: the whole command's clock: [monotonic deadline or None, --timeout or None].  Armed by the CLI with the
#: command's --timeout, it starts when the command's first run starts (the file's execution, after gradcli's
#: own start-up and the parse), and every later run of the command -- ``check``'s reruns, ``modes``'
#: variants, ``why``'s reruns, ``compare``'s PyTorch side -- ends by the same deadline (issue 20)
_COMMAND: list = [None, None]
#: set by the command's watchdog process (app/watchdog.py) when it renders the output of a command it had to
#: end: every run then returns at once as stopped at the time limit, and standard input is not read again
EXPIRED: list = [False]
#: ``fn((line, col) or None)``: the watchdog's child records the running position here while a run's thread
#: waits (lang/run.py), so a command it has to end still names the line; in the parent, EXPIRED_AT is it
ON_POSITION: list = [None]
EXPIRED_AT: list = [None]
#: ``fn(monotonic time)``: called when the command's clock starts (the watchdog's child tells its parent)
ON_START: list = [None]


def start_command(timeout: float, started: Optional[float] = None) -> None:
    """Arm the command's clock with its ``timeout``; ``started``: start it now at that monotonic time
    (else the first run starts it, :func:`run_started`)."""
    _COMMAND[1] = float(timeout)
    _COMMAND[0] = None if started is None else started + float(timeout)


def run_started() -> None:
    """A run starts: the first one of an armed command starts its clock."""
    if _COMMAND[1] is not None and _COMMAND[0] is None:
        now = time.monotonic()
        _COMMAND[0] = now + _COMMAND[1]
        fn = ON_START[0]
        if fn is not None:
            fn(now)


def end_command() -> None:
    """Disarm the command's clock (the CLI, when the command returns)."""
    _COMMAND[0] = _COMMAND[1] = None


def command_timeout() -> Optional[float]:
    """The armed command's time limit in seconds, or None."""
    return _COMMAND[1]


def command_deadline() -> Optional[float]:
    """The monotonic time by which the command's runs must end, or None (not armed, or no run yet)."""
    return _COMMAND[0]


def limit_error(message: str, limit: str, *, line: Optional[int] = None, col: Optional[int] = None) -> GradcliError:
    """A ``limit`` error for ``limit`` (a :class:`Limits` field name), hint naming its option."""
    err = error_class("limit")(message, _OPTIONS.get(limit, ""), line=line, col=col)
    err.limit = limit  # type: ignore[attr-defined]
    return err


class Budget:
    """Runtime enforcement of the step, time, call-depth and output limits of one run.

    ``tick`` is a one-element list the interpreter decrements per step; when it
    reaches zero, :meth:`refill` accounts the chunk, checks the total and the
    clock, and refills it.
    """

    __slots__ = ("limits", "tick", "used", "deadline", "whole", "depth", "output", "_chunk", "_memory")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._memory: Optional[Callable[[], None]] = None  # the engine's live-memory check, once imported
        self._chunk = max(1, min(CHECK_EVERY, limits.max_steps))
        self.tick = [self._chunk]
        self.used = 0
        run_started()
        self.deadline = time.monotonic() + limits.timeout
        whole = _COMMAND[0]
        self.whole = whole is not None and whole < self.deadline - 1e-3  # the command's clock ends first
        if self.whole:
            self.deadline = whole
        self.depth = 0
        self.output = 0

    def refill(self) -> None:
        """Account a finished chunk of steps; raise ``limit`` past max_steps or the deadline."""
        self.used += self._chunk - self.tick[0]
        if self.used > self.limits.max_steps:
            self.tick[0] = 1 << 62  # no more checks while the error propagates
            raise limit_error(
                f"the program ran more than {self.limits.max_steps:,} steps (loop iterations and function calls)",
                "max_steps",
            )
        self.check_time()
        if self._memory is not None:
            self._memory()
        left = self.limits.max_steps - self.used + 1
        self.tick[0] = self._chunk = max(1, min(CHECK_EVERY, left))

    def charge(self, n: int) -> None:
        """Account ``n`` steps at once (e.g. ``sum(range(n))`` done in C)."""
        if n <= 0:
            return
        self.tick[0] -= n
        if self.tick[0] <= 0:
            self.refill()

    def watch_memory(self, check: Optional[Callable[[], None]]) -> None:
        """Run ``check`` (raises ``limit`` past --max-memory) with every clock check."""
        self._memory = check

    def check_time(self) -> None:
        """Raise ``limit`` if the wall-clock deadline has passed."""
        if time.monotonic() > self.deadline:
            self.tick[0] = 1 << 62
            raise limit_error(timeout_message(self.limits.timeout, self.whole), "timeout")

    def add_output(self, n: int) -> None:
        """Account ``n`` printed characters; raise ``limit`` past max_output."""
        self.output += n
        if self.output > self.limits.max_output:
            raise limit_error(
                f"the program printed more than {self.limits.max_output:,} characters", "max_output"
            )

    def check_output(self, n: int) -> None:
        """Raise ``limit`` before ``n`` more characters are built for printing past max_output."""
        if self.output + n > self.limits.max_output:  # worded as add_output's: the line is never written
            raise limit_error(f"the program printed more than {self.limits.max_output:,} characters",
                              "max_output")

    def check_size(self, n: int, what: str = "sequence") -> None:
        """Raise ``limit`` if a Python sequence/string of ``n`` items may not be built.

        Building it also costs ``n // 8`` steps (``n // 64`` for a string), so the
        memory a program can fill with Python containers is bounded by the step
        budget too, not only each container's size.
        """
        if n > self.limits.max_elements:
            raise limit_error(
                f"building a {what} of {n:,} items exceeds the limit of {self.limits.max_elements:,} elements",
                "max_elements",
            )
        cost = n >> 6 if what in ("str", "string", "bytes") else n >> 3
        if cost:
            self.charge(cost)

    def check_text(self, obj: object, printing: bool = False) -> None:
        """Raise ``limit`` before ``str(obj)`` of nested lists/tuples/dicts builds a text too long.

        ``str`` of ``[[0] * 10**4] * 10**4`` -- one small list shared 10^4 times -- writes 3 * 10^8
        characters in one C call that no step count or clock check can interrupt (40 s, measured).  A lower
        bound of its length (:func:`text_size`) is checked first: against the output still allowed when
        ``printing``, else against the element limit for a string (as ``check_size`` of a ``str``).
        Anything but a list, tuple or dict returns at once.
        """
        t = type(obj)
        if t is not list and t is not tuple and t is not dict and not isinstance(obj, BaseException):
            return
        if printing:
            left = self.limits.max_output - self.output
            if text_size(obj, left) > left:
                raise limit_error(f"the program would print more than {self.limits.max_output:,} characters",
                                  "max_output")
        else:
            cap = self.limits.max_elements
            n = text_size(obj, cap)
            if n > cap:
                raise limit_error(f"the text of this {t.__name__} has more than {cap:,} characters (the limit of "
                                  f"{cap:,} elements for a str)", "max_elements")
            if n >> 6:  # building the text costs steps, as building a string does (check_size)
                self.charge(n >> 6)


def timeout_message(timeout: float, whole: bool, inside: bool = False) -> str:
    """The message of a run stopped at its deadline: its own ``timeout``, or (``whole``) the command's,
    whose earlier runs used part of it; ``inside``: stopped inside one long operation."""
    if whole and _COMMAND[1] is not None:
        text = f"the command took longer than the time limit of {_COMMAND[1]:g} s"
        note = "--timeout bounds the whole command, every run it makes included"
    else:
        text = f"the run took longer than the time limit of {timeout:g} s"
        note = ""
    if inside:
        note = "it was stopped inside one long operation" + (f"; {note}" if note else "")
    return f"{text} ({note})" if note else text


_NESTED = (list, tuple, dict)


class _Over(Exception):
    pass


def text_size(obj: object, cap: int) -> int:
    """A lower bound of ``len(str(obj))``, or ``cap + 1`` as soon as it passes ``cap``.

    Nested lists/tuples/dicts count each appearance of a shared object (as ``str`` writes it each time) but
    walk each object once (memo by id), so ``[[0] * 10**4] * 10**4`` costs 2 * 10^4 visits; a cycle counts
    as the 5 characters of ``[...]``.  Each separator, bracket and non-string item counts one character, a
    string its length + 2 (quotes).  Containers nested deeper than 500 count 2.  An exception object
    counts as the tuple of its ``args`` (``str(KeyError(big))`` writes ``repr(big)``).
    """
    memo: dict = {}

    def size(o: object, depth: int) -> int:
        t = type(o)
        if t is str:
            return len(o) + 2
        if t not in _NESTED:
            if isinstance(o, BaseException) and depth <= 500:
                return size(o.args, depth + 1)
            return 1
        k = id(o)
        got = memo.get(k)
        if got is not None:
            return got
        if depth > 500:
            return 2
        memo[k] = 5  # in progress: a cycle is written as [...]
        elems = o if t is not dict else [*o.keys(), *o.values()]
        kinds = set(map(type, elems))  # C speed
        total = 2 + 2 * max(0, len(elems) - 1)  # brackets, ", " (and a dict's ": ")
        if str in kinds:
            total += sum(map(len, [e for e in elems if type(e) is str]))
        if kinds.isdisjoint(_NESTED) and not any(issubclass(k, BaseException) for k in kinds):
            total += len(elems)
        else:
            for e in elems:
                te = type(e)
                if te is list or te is tuple or te is dict or isinstance(e, BaseException):
                    total += size(e, depth + 1)
                elif te is not str:
                    total += 1
                if total > cap:
                    raise _Over
        if total > cap:
            raise _Over
        memo[k] = total
        return total

    if type(obj) not in _NESTED and not isinstance(obj, BaseException):
        return len(obj) if type(obj) is str else 0  # at the top, a string has no quotes (and str('') is empty)
    try:
        return size(obj, 0)
    except _Over:
        return cap + 1
