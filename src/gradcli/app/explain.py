"""What issue 7 adds to ``gradcli run``: why-notes, the VJP view, CI snapshots.

:class:`RunExtras` is made from the command-line flags before the run (so a bad
snapshot path is an invocation error, exit 2, before anything runs), wraps the
run (the VJP recorder is an engine observer), then works on the result: the
why-notes (``result.why``, rendered in the table and in ``--json``), the
snapshot written or compared, and the exit status.  No typer here.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Optional

from ..status import ExitStatus

__all__ = ["RunExtras"]


class RunExtras:
    def __init__(self, *, explain_vjp: bool = False, snapshot: Optional[str] = None,
                 expect_snapshot: Optional[str] = None, json_output: bool = False, source: str = "-") -> None:
        self.explain_vjp = explain_vjp
        self.snapshot = snapshot
        self.expect_snapshot = expect_snapshot
        self.json_output = json_output
        self.expected = None
        if snapshot is not None or expect_snapshot is not None:  # imported only then: start-up time
            from .snapshot import check_writable, read_snapshot

            if snapshot is not None:
                check_writable(snapshot, source)  # source: the input file, never overwritten
            if expect_snapshot is not None:
                self.expected = read_snapshot(expect_snapshot)
        self.recorder: Any = None
        self.check: Any = None
        self.views: list = []

    @contextmanager
    def running(self) -> Iterator[None]:
        """Around the run: the VJP recorder when --explain-vjp asked for it."""
        from .vjp import recording

        with recording(self.explain_vjp) as rec:
            self.recorder = rec
            yield

    def after(self, result: Any, options: Any, json_max_elements: int) -> None:
        """Why-notes, VJP view names, the snapshot written and/or compared."""
        from .why import annotate

        try:
            annotate(result, options)
        except Exception:  # an explanation must never turn the user's run into an internal error
            result.why = {}
        if self.recorder is not None:
            self.views = self.recorder.name_views(result)
        if self.snapshot is None and self.expected is None:
            return
        from .records import run_document
        from .snapshot import compare_snapshot, write_snapshot

        doc = run_document(result, json_max_elements)
        if self.expected is not None:
            self.check = compare_snapshot(self.expect_snapshot or "", doc, self.expected)
        if self.snapshot is not None:
            write_snapshot(self.snapshot, doc)

    @property
    def shows_anything(self) -> bool:
        """Whether :meth:`render` has anything to print (when not, no console is needed)."""
        return bool(self.views) or (self.explain_vjp and not self.json_output) or self.check is not None

    def render(self, out: Any, err: Any, file: str) -> None:
        """The VJP panels and the snapshot verdict (on stderr under --json, whose stdout is JSON only)."""
        target = err if self.json_output else out
        if self.views and not self.json_output:
            from .render.vjp import vjp_panel

            for view in self.views:
                out.print(vjp_panel(view, file))
        elif self.explain_vjp and not self.json_output:
            from rich.text import Text

            out.print(Text("--explain-vjp: no backward with a non-scalar root and gradient= ran", style="dim"))
        if self.check is not None:
            from .render.snapshot import snapshot_table, snapshot_verdict

            if not self.check.ok:
                target.print(snapshot_table(self.check))
            target.print(snapshot_verdict(self.check))

    def status(self, base: ExitStatus, expect_error: Optional[str] = None) -> ExitStatus:
        """With --expect-snapshot the run must match the snapshot (exit 1 otherwise); the run's own
        failure then counts only through the snapshot (a recorded failure may be what is expected),
        and through --expect-error when that is given too."""
        if self.check is None:
            return base
        if not self.check.ok:
            return ExitStatus.ERROR
        return base if expect_error is not None else ExitStatus.SUCCESS
