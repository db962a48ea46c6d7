"""The explainer commands of issue 7: ``gradcli why``, ``gradcli lint``, ``gradcli modes``.

Registered on :data:`gradcli.cli.app` (cli.py imports this module once, at its
end), with the same four steps as every command there: parse (typer and
:mod:`gradcli.app.options`), service (:mod:`gradcli.app.why`, ``.lint``,
``.modes``), render (:mod:`gradcli.app.render`), exit status (``_guarded``).
Imports stay lazy, so ``gradcli --help`` loads no engine.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from .cli import (
    BackwardOpt, CreateGraphOpt, DebugOpt, DTypeOpt, FileArg, GradientOpt, InputsOpt, MaxCallDepthOpt,
    MaxDepthOpt, MaxElementsOpt, MaxOutputOpt, MaxSourceOpt, MaxStepsOpt, NoGradOpt, RepeatOpt, RequiresGradOpt,
    RetainGradOpt, RetainGraphOpt, SeedOpt, SetOpt, TimeoutOpt, _guarded, _run_options, app, invocation,
)
from .status import ExitStatus

__all__ = ["why_command", "lint_command", "modes_command"]

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout, and nothing else.")]


# --- why ------------------------------------------------------------------------------------
@app.command("why", no_args_is_help=True)
def why_command(
    file: FileArg,
    name: Annotated[str, typer.Argument(metavar="NAME", show_default=False,
                                        help="The tensor whose gradient is None or zero.")],
    sets: SetOpt = None,
    requires_grad: RequiresGradOpt = None,
    retain_grad: RetainGradOpt = None,
    no_grad: NoGradOpt = False,
    backward: BackwardOpt = None,
    gradient: GradientOpt = None,
    inputs: InputsOpt = None,
    retain_graph: RetainGraphOpt = False,
    create_graph: CreateGraphOpt = False,
    repeat: RepeatOpt = 1,
    dtype: DTypeOpt = None,
    seed: SeedOpt = 0,
    json_output: JsonOpt = False,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Explain why NAME's gradient is None (or all zeros) after running FILE."""

    def body() -> ExitStatus:
        from .app import options as opt

        target = opt.parse_names("NAME", [name], dotted=True)[0]
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout,
            max_call_depth=max_call_depth, max_output=max_output, max_source=max_source, max_depth=max_depth,
        )
        from .app.problems import UsageProblem
        from .app.run import execute
        from .app.why import explain_name

        result = execute(file, options, argv=invocation("why", file))
        failed = result.error is not None
        tensors = dict(result.tensors)
        if not failed and target not in tensors:
            names = ", ".join(tensors) or "none"
            raise UsageProblem(f"{target} is not a tensor the file binds at top level (tensors: {names})",
                               "Name one of the file's tensors.")
        t = tensors.get(target)
        note = None
        if t is not None:
            try:
                note = explain_name(result, target, options)
            except Exception:  # noqa: BLE001 - after a failure the explanation is a bonus, never a crash
                if not failed:
                    raise
        status = ExitStatus.ERROR if failed else ExitStatus.SUCCESS
        if json_output:
            from .app.records import error_record, tensor_values
            from .app.render.jsonout import dumps

            grad = None if t is None else getattr(t, "_grad", None)
            doc = {"schema": "gradcli.why/1", "file": result.file, "name": target,
                   "grad": None if grad is None else tensor_values(grad._data),
                   "why": None if note is None else note.as_dict(),
                   "error": None if result.error is None else error_record(result.error)}
            sys.stdout.write(dumps(doc) + "\n")
            sys.stdout.flush()
            return status
        from rich.text import Text

        from .app.render.console import make_console

        out = make_console()
        if failed:  # the file's own failure first
            from .app.render.panels import error_panel

            out.print(error_panel(result.error, result.file, result.source))
            if t is None:
                bound = ", ".join(tensors) or "none"
                out.print(Text(f"`{target}` was not bound to a tensor when the file stopped "
                               f"(tensors then: {bound})", style="bold red"))
                return status
        if note is None:
            from .app.render.human import short_values

            if t._grad is None:  # pragma: no cover - a None gradient always has a note
                out.print(Text(f"{target}.grad is None"))
            else:
                out.print(Text(f"{target}.grad is set (not None, not all zeros): ") +
                          Text(short_values(t._grad._data), style="green"))
            return status
        from .app.render.why import why_panel

        out.print(why_panel(target, note, result.file, result.source))
        return status

    _guarded(debug, body)


# --- lint -----------------------------------------------------------------------------------
@app.command("lint", no_args_is_help=True)
def lint_command(
    file: FileArg,
    json_output: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Find autograd mistakes in FILE before running it (static: nothing is computed).

    Exit status 1 when anything is found ("may" findings included), 0 when nothing is.
    """

    def body() -> ExitStatus:
        from .app.lint import lint_document, lint_source
        from .app.run import read_source

        raw, display = read_source(file)
        result = lint_source(raw, display)
        if json_output:
            from .app.render.jsonout import dumps

            sys.stdout.write(dumps(lint_document(result)) + "\n")
            sys.stdout.flush()
        else:
            from .app.render.console import make_console
            from .app.render.lint import render_lint

            from .lang.parse import source_text

            render_lint(result, source_text(raw), make_console())
        return ExitStatus.SUCCESS if not result.findings and result.error is None else ExitStatus.ERROR

    _guarded(debug, body)


# --- modes ----------------------------------------------------------------------------------
@app.command("modes", no_args_is_help=True)
def modes_command(
    file: FileArg,
    target: Annotated[
        Optional[str],
        typer.Option("--target", metavar="NAME", show_default=False,
                     help="The tensor to compute under each off-switch (default: the first tensor the file "
                          "computes with autograd history)."),
    ] = None,
    sets: SetOpt = None,
    requires_grad: RequiresGradOpt = None,
    retain_grad: RetainGradOpt = None,
    backward: BackwardOpt = None,
    gradient: GradientOpt = None,
    inputs: InputsOpt = None,
    retain_graph: RetainGraphOpt = False,
    create_graph: CreateGraphOpt = False,
    repeat: RepeatOpt = 1,
    dtype: DTypeOpt = None,
    seed: SeedOpt = 0,
    json_output: JsonOpt = False,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Run FILE as written and with the target computed under no_grad, set_grad_enabled(False),
    inference_mode, detach(), requires_grad_(False) and .data, and after model.eval() when it calls
    an nn.Module: one table of flags and gradients, then what each switch does."""

    def body() -> ExitStatus:
        from .app import options as opt

        name = opt.parse_names("--target", [target])[0] if target is not None else None
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=False,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout,
            max_call_depth=max_call_depth, max_output=max_output, max_source=max_source, max_depth=max_depth,
        )
        from .app.modes import modes_document, run_modes
        from .app.run import read_source

        raw, display = read_source(file, max_bytes=options.max_source_bytes)
        report = run_modes(raw, display, options, name, argv=invocation("modes", file))
        if json_output:
            from .app.render.jsonout import dumps

            sys.stdout.write(dumps(modes_document(report)) + "\n")
            sys.stdout.flush()
        else:
            from .app.render.console import make_console
            from .app.render.modes import render_modes

            render_modes(report, make_console())
        return ExitStatus.ERROR if report.failure is not None else ExitStatus.SUCCESS

    _guarded(debug, body)
