"""The ``gradcli`` command line: parse -> service -> render -> exit status.

Every command follows the same four steps (DESIGN §9, httpie's layout):

1. *parse*: typer turns argv into typed parameters; :mod:`gradcli.app.options`
   checks the values (a bad one raises ``UsageProblem``, exit status 2);
2. *service*: a function of :mod:`gradcli.app` does the work and returns plain
   data (``RunResult``, graph and op listings);
3. *render*: :mod:`gradcli.app.render` writes it as rich tables/panels, JSON,
   DOT or Mermaid, to a console made for this call (stdout for results,
   stderr for diagnostics), so tests can capture it;
4. *exit status*: :func:`_guarded`, the one wrapper, maps the outcome and any
   exception to :class:`gradcli.status.ExitStatus` (0 ok, 1 the file failed,
   2 bad invocation, 70 internal error with the traceback only under
   ``--debug``).

Imports are lazy: this module imports only typer and the import-free
``status`` module, so ``gradcli --help`` never loads numpy or the engine.
For the same reason the help is typer's plain formatter
(``rich_markup_mode=None``: rich's markdown-capable help costs ~0.25 s of
imports on every ``--help``) and shell-completion installation is off.
"""


import sys
from enum import Enum
from typing import Annotated, Any, Callable, Optional

import typer

from . import __version__
from .status import ExitStatus

__all__ = ["app", "main"]

app = typer.Typer(
    name="gradcli",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    help=(
        "Explore PyTorch autograd from the command line. "
        "Run a small PyTorch-syntax expression file on gradcli's own numpy autograd engine "
        "and see every tensor's value, gradient and flags, what print printed, and every "
        "autograd error explained with its line and a hint."
    ),
    epilog="Exit status: 0 ok, 1 the file failed, 2 bad invocation, 70 internal error.",
)


class DType(str, Enum):
    """Default floating dtype of a run (``--dtype``)."""

    float32 = "float32"
    float64 = "float64"


class GraphFormat(str, Enum):
    """Text formats of ``gradcli graph``."""

    tree = "tree"
    dot = "dot"
    mermaid = "mermaid"
    json = "json"


# --- options shared by run and graph (SPEC §3) ------------------------------------------
FileArg = Annotated[
    str,
    typer.Argument(metavar="FILE", help="The expression file, or - to read it from standard input.",
                   show_default=False),
]
SetOpt = Annotated[
    Optional[list[str]],
    typer.Option("--set", metavar="NAME=VALUE", show_default=False,
                 help="Bind NAME before the file runs (repeatable). VALUE: a number or nested list "
                      "(a tensor of the default dtype) or an expression, e.g. 'torch.randn(2, 3)'."),
]
RequiresGradOpt = Annotated[
    Optional[list[str]],
    typer.Option("--requires-grad", metavar="NAME", show_default=False,
                 help="After each assignment to NAME, call NAME.requires_grad_() (repeatable)."),
]
RetainGradOpt = Annotated[
    Optional[list[str]],
    typer.Option("--retain-grad", metavar="NAME", show_default=False,
                 help="After each assignment to NAME, call NAME.retain_grad() (repeatable)."),
]
NoGradOpt = Annotated[bool, typer.Option("--no-grad", help="Run the file body inside torch.no_grad().")]
BackwardOpt = Annotated[
    Optional[str],
    typer.Option("--backward", metavar="NAME", show_default=False,
                 help="After the file, call NAME.backward(...). Default: the last tensor assigned at top "
                      "level, if it requires grad and the file makes no backward/grad call itself."),
]
GradientOpt = Annotated[
    Optional[str],
    typer.Option("--gradient", metavar="VALUE", show_default=False,
                 help="The gradient argument of that backward: a number, a nested list, 'ones', or an "
                      "expression."),
]
InputsOpt = Annotated[
    Optional[str],
    typer.Option("--inputs", metavar="NAME[,NAME]", show_default=False,
                 help="The inputs argument of that backward."),
]
RetainGraphOpt = Annotated[bool, typer.Option("--retain-graph", help="Pass retain_graph=True to that backward.")]
CreateGraphOpt = Annotated[bool, typer.Option("--create-graph", help="Pass create_graph=True to that backward.")]
RepeatOpt = Annotated[
    int,
    typer.Option("--repeat", metavar="N", min=0,
                 help="Call that backward N times (shows accumulation, and the second-backward error "
                      "without --retain-graph)."),
]
DTypeOpt = Annotated[
    Optional[DType],
    typer.Option("--dtype", case_sensitive=False, show_default=False, help="Default dtype (as PyTorch: float32)."),
]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="N", help="Random seed when the file sets none.")]
ExpectErrorOpt = Annotated[
    Optional[str],
    typer.Option("--expect-error", metavar="KIND", show_default=False,
                 help="Succeed (exit 0) only if the run fails with this error kind, e.g. second_backward."),
]
MaxElementsOpt = Annotated[
    Optional[int],
    typer.Option("--max-elements", metavar="N", min=1, show_default=False,
                 help="Largest tensor (elements) the file may create."),
]
MaxStepsOpt = Annotated[
    Optional[int],
    typer.Option("--max-steps", metavar="N", min=1, show_default=False,
                 help="Most statements/loop iterations the file may run."),
]
MaxMemoryOpt = Annotated[
    Optional[str],
    typer.Option("--max-memory", metavar="SIZE", show_default=False,
                 help="Live memory the file may hold: tensors, graph and Python objects (e.g. 512M, 8G; "
                      "default 4G)."),
]
TimeoutOpt = Annotated[
    Optional[float],
    typer.Option("--timeout", metavar="S", min=0.0, show_default=False, help="Wall-clock limit in seconds."),
]
MaxCallDepthOpt = Annotated[
    Optional[int],
    typer.Option("--max-call-depth", metavar="N", min=1, max=10_000, show_default=False,
                 help="Deepest nesting of user-function calls (recursion; default 200)."),
]
MaxOutputOpt = Annotated[
    Optional[int],
    typer.Option("--max-output", metavar="N", min=1, show_default=False,
                 help="Most characters the file may print (default 10,000,000)."),
]
MaxSourceOpt = Annotated[
    Optional[str],
    typer.Option("--max-source", metavar="SIZE", show_default=False,
                 help="Largest file gradcli reads, in bytes (K, M, G: powers of 1024; default 1,000,000)."),
]
MaxDepthOpt = Annotated[
    Optional[int],
    typer.Option("--max-depth", metavar="N", min=1, max=1_000, show_default=False,
                 help="Deepest nesting of brackets in an expression (default 100; the syntax tree may be "
                      "twice as deep)."),
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show the traceback of internal errors.")]


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"gradcli {__version__}")
        raise typer.Exit(int(ExitStatus.SUCCESS))


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version_callback, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Explore PyTorch autograd from the command line."""


#: the command line of this call (without the program name), set by :func:`main`
_ARGV: list = [None]


def invocation(command: str, file: str) -> list[str]:
    """The command line being run (for hints that give a corrected command), or ``[command, file]``
    when gradcli was not started through :func:`main`."""
    args = _ARGV[0]
    if args and args[0] == command:
        return list(args)
    return [command, file]


# --- the one wrapper: outcome/exception -> exit status --------------------------------------
def _guarded(debug: bool, body: Callable[[], ExitStatus]) -> None:
    """Run a command body; map its result or exception to the process exit status.

    UsageProblem and the language layer's InvocationError -> 2 (message on
    stderr); KeyboardInterrupt -> 130; a closed output pipe -> 1, quietly;
    anything else is a bug of gradcli -> 70, a short panel on stderr (the
    traceback only with --debug).
    """
    try:
        status = body()
    except KeyboardInterrupt:
        status = ExitStatus.INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        status = ExitStatus.ERROR
    except Exception as exc:  # noqa: BLE001 - this is the one place that maps everything
        status = _report_exception(exc, debug)
    raise typer.Exit(int(status))


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass


def _is_invocation_error(exc: BaseException) -> bool:
    from .app.problems import UsageProblem

    if isinstance(exc, UsageProblem):
        return True
    lang_run = sys.modules.get("gradcli.lang.run")
    inv = getattr(lang_run, "InvocationError", None)
    return isinstance(inv, type) and isinstance(exc, inv)


def _report_exception(exc: Exception, debug: bool) -> ExitStatus:
    from rich.text import Text

    from .app.render.console import make_console

    err = make_console(stderr=True)
    if _is_invocation_error(exc):
        message = getattr(exc, "message", None) or str(exc)
        err.print(Text("gradcli: error: ", style="bold red") + Text(message), soft_wrap=True)
        hint = getattr(exc, "hint", "")
        if hint:
            err.print(Text("hint: ", style="bold green") + Text(hint), soft_wrap=True)
        return ExitStatus.USAGE
    from .app.render.panels import problem_panel

    detail = Text(f"{type(exc).__name__}: {exc}")
    if debug:
        import traceback

        err.print(Text("".join(traceback.format_exception(exc)), style="dim"))
        hint = "Please report this with the file and the command line."
    else:
        hint = "Rerun with --debug to see the traceback, and report it with the file and the command line."
    err.print(problem_panel("internal error", "gradcli itself failed (a bug, not a mistake in your file):",
                            hint, extra=detail))
    return ExitStatus.INTERNAL


def _run_options(
    *, sets: Optional[list[str]], requires_grad: Optional[list[str]], retain_grad: Optional[list[str]],
    no_grad: bool, backward: Optional[str], gradient: Optional[str], inputs: Optional[str],
    retain_graph: bool, create_graph: bool, repeat: int, dtype: Optional[DType], seed: int,
    max_elements: Optional[int], max_steps: Optional[int], timeout: Optional[float], trace: bool = False,
    max_memory: Optional[str] = None, detect_anomaly: bool = False, max_call_depth: Optional[int] = None,
    max_output: Optional[int] = None, max_source: Optional[str] = None, max_depth: Optional[int] = None,
) -> Any:
    """Checked command-line values -> the language layer's RunOptions."""
    from .app import options as opt
    from .lang.result import RunOptions

    if backward is not None:
        backward = opt.parse_names("--backward", [backward])[0]
    return RunOptions(
        sets=opt.parse_sets(sets),
        requires_grad=opt.parse_names("--requires-grad", requires_grad),
        retain_grad=opt.parse_names("--retain-grad", retain_grad),
        no_grad=no_grad,
        backward=backward,
        gradient=gradient,
        inputs=opt.parse_name_list("--inputs", inputs),
        retain_graph=retain_graph,
        create_graph=create_graph,
        repeat=repeat,
        dtype=None if dtype is None else dtype.value,
        seed=seed,
        max_elements=max_elements,
        max_memory=opt.parse_size("--max-memory", max_memory),
        detect_anomaly=detect_anomaly,
        max_steps=max_steps,
        timeout=timeout,
        trace=trace,
        max_call_depth=max_call_depth,
        max_output=max_output,
        max_source_bytes=opt.parse_size("--max-source", max_source),
        max_depth=max_depth,
    )


# --- run ----------------------------------------------------------------------------------
@app.command("run", no_args_is_help=True)
def run_command(
    file: FileArg,
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
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the gradcli.run/1 JSON object on stdout, and nothing else.")
    ] = False,
    expect_error: ExpectErrorOpt = None,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    max_memory: MaxMemoryOpt = None,
    detect_anomaly: Annotated[
        bool, typer.Option("--detect-anomaly", help="Anomaly mode for the whole run (as "
                                                    "torch.autograd.set_detect_anomaly(True)): the first backward "
                                                    "node that returns NaN fails, naming the line that created it; "
                                                    "gradcli also names the first forward op that made a NaN and "
                                                    "an inf.")
    ] = False,
    json_max_elements: Annotated[
        int,
        typer.Option("--json-max-elements", metavar="N", min=0,
                     help="In --json, tensors with more elements give a {truncated, shape, min, max, mean} "
                          "summary instead of their values."),
    ] = 100_000,
    trace: Annotated[
        bool, typer.Option("--trace", help="Show the backward pass step by step: node, incoming and outgoing "
                                           "gradients.")
    ] = False,
    show: Annotated[
        Optional[str],
        typer.Option("--show", metavar="data,grad,flags,why", show_default=False,
                     help="What to show: the tensor table's data, grad and flags columns, and the \"why no "
                          "gradient\" table (why); default: all."),
    ] = None,
    explain_vjp: Annotated[
        bool, typer.Option("--explain-vjp", help="For a backward of a non-scalar tensor with gradient=v: show "
                                                 "the Jacobian J, v, and that v^T J is what landed in .grad.")
    ] = False,
    snapshot: Annotated[
        Optional[str],
        typer.Option("--snapshot", metavar="PATH", show_default=False,
                     help="Also write the run's JSON (as --json prints it) to PATH, atomically."),
    ] = None,
    expect_snapshot: Annotated[
        Optional[str],
        typer.Option("--expect-snapshot", metavar="PATH", show_default=False,
                     help="Compare the run with the snapshot at PATH (conformance tolerances); exit 1 with a "
                          "table of differences when they disagree."),
    ] = None,
    debug: DebugOpt = False,
) -> None:
    """Run FILE, then show its tensors, gradients, print output, warnings and errors."""

    def body() -> ExitStatus:
        from .app import options as opt

        kind = opt.check_expect_error(expect_error)
        columns = opt.parse_show(show)
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout, trace=trace and not json_output, max_memory=max_memory,
            detect_anomaly=detect_anomaly, max_call_depth=max_call_depth, max_output=max_output,
            max_source=max_source, max_depth=max_depth,
        )
        from .app.explain import RunExtras
        from .app.run import execute, exit_status

        extras = RunExtras(explain_vjp=explain_vjp, snapshot=snapshot, expect_snapshot=expect_snapshot,
                           json_output=json_output, source=file)
        with extras.running():
            result = execute(file, options, argv=invocation("run", file))
        extras.after(result, options, json_max_elements)
        if json_output:
            from .app.records import run_document
            from .app.render.jsonout import dumps

            text = dumps(run_document(result, json_max_elements))
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        else:
            from .app.render.console import make_console
            from .app.render.human import render_run

            render_run(result, make_console(), show=columns, trace=trace, expect_error=kind)
        if extras.shows_anything:
            from .app.render.console import make_console

            extras.render(make_console(), make_console(stderr=True), result.file)
        return extras.status(exit_status(result, kind), kind)

    _guarded(debug, body)


# --- ops ----------------------------------------------------------------------------------
@app.command("ops")
def ops_command(
    query: Annotated[
        Optional[str], typer.Argument(metavar="[NAME]", show_default=False,
                                      help="Only operations whose name, spelling or grad_fn contains NAME.")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the listing as JSON (gradcli.ops/1).")] = False,
    group: Annotated[
        Optional[str], typer.Option("--group", metavar="GROUP", show_default=False,
                                    help="Only the operations of this family (e.g. elementwise, reduction).")
    ] = None,
    debug: DebugOpt = False,
) -> None:
    """List the supported operations, their grad_fn names and derivative formulas."""

    def body() -> ExitStatus:
        from .app.ops import list_ops, ops_document

        listing = list_ops(group, query)
        if json_output:
            from .app.render.jsonout import dumps

            sys.stdout.write(dumps(ops_document(listing)) + "\n")
            sys.stdout.flush()
        else:
            from .app.render.console import make_console
            from .app.render.ops import render_ops

            render_ops(listing, make_console())
        return ExitStatus.SUCCESS

    _guarded(debug, body)


# --- graph --------------------------------------------------------------------------------
@app.command("graph", no_args_is_help=True)
def graph_command(
    file: FileArg,
    fmt: Annotated[
        Optional[GraphFormat],
        typer.Option("--format", "-f", case_sensitive=False, show_default=False,
                     help="Output format (default: tree, or what the --output extension says)."),
    ] = None,
    root: Annotated[
        Optional[list[str]],
        typer.Option("--root", metavar="NAME", show_default=False,
                     help="Start the graph at tensor NAME (repeatable; default: every named tensor that no "
                          "other named tensor was computed from)."),
    ] = None,
    show_saved: Annotated[
        bool, typer.Option("--show-saved", help="Show each node's saved tensors by PyTorch's _saved_* name, what each one is, its "
                                      "version at save and now, and whether backward freed it (nodes of their own in "
                                      "dot, mermaid and svg).")
    ] = False,
    values: Annotated[
        bool, typer.Option("--values", help="Label each node with its output's dtype, shape and value (the "
                                            "values when at most 6 elements, else min/max/mean), and the "
                                            "gradient that flowed into it in the last backward that ran it "
                                            "(a leaf: its .grad). Without a backward only values are shown.")
    ] = False,
    output: Annotated[
        Optional[str],
        typer.Option("--output", "-o", metavar="PATH", show_default=False,
                     help="Write to PATH instead of stdout: .dot, .mmd, .json, .txt, or .svg/.png (through "
                          "Graphviz's dot program)."),
    ] = None,
    hide: Annotated[
        Optional[str],
        typer.Option("--hide", metavar="accumulate,views", show_default=False,
                     help="Leave out AccumulateGrad nodes and/or view nodes (edges pass through)."),
    ] = None,
    unroll: Annotated[
        bool, typer.Option("--unroll", help="Draw every node: pictures (dot, svg, png, mermaid) of graphs above "
                                            "30 nodes otherwise draw each loop's repeated iterations once, "
                                            "with their count.")
    ] = False,
    depth: Annotated[
        Optional[int],
        typer.Option("--depth", metavar="N", min=1, show_default=False,
                     help="Draw each nn.Module at depth N (model = 1, model.fc1 = 2) as one node standing "
                          "for the nodes made inside it; shallower modules stay boxes (default: every "
                          "module a box)."),
    ] = None,
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
    expect_error: ExpectErrorOpt = None,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    max_memory: MaxMemoryOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Show the autograd graph (DAG) that FILE builds, labelled with the file's names and lines."""

    def body() -> ExitStatus:
        from .app import options as opt

        kind = opt.check_expect_error(expect_error)
        hidden = opt.parse_hide(hide)
        roots = opt.parse_names("--root", root, dotted=True)
        from .app.graph import check_output_path, output_format

        out_format = output_format(None if fmt is None else fmt.value, output)
        check_output_path(output)
        from .app.graph import check_output_not_input

        check_output_not_input(output, file)
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout,
            max_call_depth=max_call_depth, max_output=max_output, max_source=max_source, max_depth=max_depth,
            max_memory=max_memory,
        )
        from .app.graph import build_graph, write_graph
        from .app.run import execute, exit_status

        if values:
            import dataclasses

            options = dataclasses.replace(options, values=True)
        result = execute(file, options, argv=invocation("graph", file))
        graph = build_graph(result, roots=roots, hide=hidden, values=values, depth=depth)
        from .app.render.console import make_console

        if result.error is not None:  # the file's own failure first; then the graph it built, if any
            from .app.render.panels import error_panel

            make_console(stderr=True).print(error_panel(result.error, result.file, result.source))
        if out_format in ("dot", "svg", "png", "mermaid") and not unroll:
            from .app.graph import roll_loops

            graph = roll_loops(graph, result.source)
        if result.error is None or graph.nodes or out_format == "json":
            write_graph(graph, out_format, output, show_saved=show_saved, out=make_console())
        return exit_status(result, kind)

    _guarded(debug, body)


# --- check --------------------------------------------------------------------------------
@app.command("check", no_args_is_help=True)
def check_command(
    file: FileArg,
    eps: Annotated[
        float, typer.Option("--eps", metavar="EPS", help="Step of the central differences (float64).")
    ] = 1e-6,
    atol: Annotated[float, typer.Option("--atol", metavar="ATOL", min=0.0, help="Absolute tolerance.")] = 1e-5,
    rtol: Annotated[float, typer.Option("--rtol", metavar="RTOL", min=0.0, help="Relative tolerance.")] = 1e-3,
    per_node: Annotated[
        bool, typer.Option("--per-node", help="Also check each node's backward rule on its own against finite "
                                              "differences of its forward, and name the first wrong one.")
    ] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the gradcli.check/1 JSON object on stdout, and nothing else.")
    ] = False,
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
    expect_error: ExpectErrorOpt = None,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Compare FILE's analytic gradients with float64 central differences (the file is the function)."""

    def body() -> ExitStatus:
        from .app import options as opt

        kind = opt.check_expect_error(expect_error)
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout,
            max_call_depth=max_call_depth, max_output=max_output, max_source=max_source, max_depth=max_depth,
        )
        from .app.check import CheckSettings, check_file, exit_status

        report = check_file(file, options, CheckSettings(eps=eps, atol=atol, rtol=rtol, per_node=per_node))
        if report.run is not None:
            from .app.run import explain_name_error

            explain_name_error(report.run, invocation("check", file))
        if json_output:
            from .app.check import check_document
            from .app.render.jsonout import dumps

            sys.stdout.write(dumps(check_document(report)) + "\n")
            sys.stdout.flush()
        else:
            from .app.render.checkfmt import render_check
            from .app.render.console import make_console

            render_check(report, make_console(), expect_error=kind)
        return exit_status(report, kind)

    _guarded(debug, body)


# --- compare ------------------------------------------------------------------------------
@app.command("compare", no_args_is_help=True)
def compare_command(
    file: FileArg,
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
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the gradcli.compare/1 JSON object on stdout, and nothing else.")
    ] = False,
    max_elements: MaxElementsOpt = None,
    max_steps: MaxStepsOpt = None,
    timeout: TimeoutOpt = None,
    max_call_depth: MaxCallDepthOpt = None,
    max_output: MaxOutputOpt = None,
    max_source: MaxSourceOpt = None,
    max_depth: MaxDepthOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Run FILE in gradcli and in PyTorch (needs the torch extra) and show every difference; exit 1 if any.

    PyTorch runs it within gradcli's surface, in a confined process (SECURITY.md); where those walls
    stop it, a `PyTorch side` difference says so.
    """

    def body() -> ExitStatus:
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout,
            max_call_depth=max_call_depth, max_output=max_output, max_source=max_source, max_depth=max_depth,
        )
        from .app.compare import compare_document, compare_file

        comparison = compare_file(file, options, timeout=timeout or 120.0, argv=invocation("compare", file))
        if json_output:
            from .app.render.jsonout import dumps

            sys.stdout.write(dumps(compare_document(comparison)) + "\n")
            sys.stdout.flush()
        else:
            from .app.render.compare import render_compare
            from .app.render.console import make_console

            render_compare(comparison, make_console())
        # the file's own failure is exit status 1 as in `run`, even when PyTorch fails the same way
        return ExitStatus.SUCCESS if comparison.identical and not comparison.failed else ExitStatus.ERROR

    _guarded(debug, body)


# --- schema -------------------------------------------------------------------------------
@app.command("schema")
def schema_command(
    name: Annotated[
        Optional[str], typer.Argument(metavar="[NAME]", show_default=False,
                                      help="The schema to print: run, graph, check, ops, why, lint, modes or "
                                           "compare (without NAME: the list).")
    ] = None,
    debug: DebugOpt = False,
) -> None:
    """Print the JSON Schema of a --json output (each validates on its own: no reference leaves the file)."""

    def body() -> ExitStatus:
        from .app.schemas import schema_names, schema_text

        if name is None:
            from .app.schemas import schema_title

            for n in schema_names():
                sys.stdout.write(f"{n:<8} {schema_title(n)}\n")
            sys.stdout.flush()
            return ExitStatus.SUCCESS
        sys.stdout.write(schema_text(name))
        sys.stdout.flush()
        return ExitStatus.SUCCESS

    _guarded(debug, body)


from . import cli_explain as _cli_explain  # noqa: E402,F401 - registers why, lint, modes (issue 7)
from . import cli_report as _cli_report  # noqa: E402,F401 - registers report


def _app_for(args: list[str]) -> typer.Typer:
    """The app to run ``args`` with: when they start with a command's name, a copy of :data:`app`
    holding that one command (and the root callback, so it is still the ``gradcli`` group and its
    usage lines, help and errors are the same), since typer builds the click command -- every
    parameter's type hints -- of each registered command on every call; otherwise :data:`app`."""
    if not args or args[0].startswith("-"):
        return app
    from typer.main import get_command_name

    for info in app.registered_commands:
        name = info.name or get_command_name(info.callback.__name__)
        if name == args[0]:
            import copy

            lean = copy.copy(app)
            lean.registered_commands = [info]
            return lean
    return app


def main(argv: Optional[list[str]] = None, prog_name: str = "gradcli") -> int:
    """Entry point of the ``gradcli`` script and ``python -m gradcli``; returns the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    _ARGV[0] = list(args)
    from .app.watchdog import timeout_of
    from .lang import limits

    own_clock = limits.command_deadline() is None  # the watchdog's child runs on the clock its parent started
    if own_clock:
        timeout = timeout_of(args)
        if timeout is not None:  # --timeout bounds the whole command, every run it makes (issue 20)
            limits.start_command(timeout)
    try:
        _app_for(args)(args=args, prog_name=prog_name)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return _leave(int(ExitStatus.SUCCESS))
        return _leave(code if isinstance(code, int) else int(ExitStatus.ERROR))
    finally:
        if own_clock:
            limits.end_command()
    return _leave(int(ExitStatus.SUCCESS))


def script() -> None:
    """The ``gradcli`` console script and ``python -m gradcli``: :func:`main`, then the process ends.

    When the output is flushed, the atexit handlers have run and no non-daemon thread is alive, it ends
    with ``os._exit``: the interpreter's teardown (freeing every module and object one by one) is
    about 7% of a small run's instructions and grows with the graph a file built.  Otherwise (a
    write to a closed pipe, another thread) it ends as usual, through ``sys.exit``.
    """
    from .app.watchdog import supervise

    supervise(sys.argv[1:])  # returns in the child, or in the parent to render a command it had to end
    code = main()
    if _threading_alone():
        import atexit
        import os

        if _flushed():
            atexit._run_exitfuncs()
            if _flushed():
                os._exit(code)
    sys.exit(code)


def _threading_alone() -> bool:
    """No thread but the main one and daemon threads (the idle run worker) is alive: the usual exit
    would wait for a non-daemon thread, and ends daemon threads as ``os._exit`` does."""
    threading = sys.modules.get("threading")
    if threading is None:
        return True
    main = threading.main_thread()
    return all(t is main or t.daemon for t in threading.enumerate())


def _flushed() -> bool:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # noqa: BLE001 - e.g. a closed pipe: the usual exit reports it as before
            return False
    return True


def _leave(code: int) -> int:
    """``code``, or -- when a run was stopped at its hard deadline inside a long engine operation that
    is still running on its thread -- exit now with ``code`` (the output is already written): the normal
    interpreter shutdown would wait for that operation, and OpenBLAS's exit handler can deadlock on it."""
    lang_run = sys.modules.get("gradcli.lang.run")
    if lang_run is not None and getattr(lang_run, "_ZOMBIES", None):
        import os

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed pipe: nothing more to say
                pass
        os._exit(code)
    return code
