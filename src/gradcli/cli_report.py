"""``gradcli report FILE -o report.html``: the run as one self-contained HTML page (issue 23, must-have 6).

Registered on :data:`gradcli.cli.app` (cli.py imports this module once, at its end), with the four steps of
every command: parse (typer and :mod:`gradcli.app.options`), service (the run with the backward trace on,
:func:`gradcli.app.graph.build_graph`, :func:`gradcli.app.report.build_report`), render
(:mod:`gradcli.app.render.report_html`), exit status (``_guarded``).  The page is written atomically, never
over the input file; nothing else is written.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .cli import (
    BackwardOpt, CreateGraphOpt, DebugOpt, DTypeOpt, ExpectErrorOpt, FileArg, GradientOpt, InputsOpt,
    MaxCallDepthOpt, MaxDepthOpt, MaxElementsOpt, MaxMemoryOpt, MaxOutputOpt, MaxSourceOpt, MaxStepsOpt,
    NoGradOpt, RepeatOpt, RequiresGradOpt, RetainGradOpt, RetainGraphOpt, SeedOpt, SetOpt, TimeoutOpt, _guarded,
    _run_options, app, invocation,
)
from .status import ExitStatus

__all__ = ["report_command"]


@app.command("report", no_args_is_help=True)
def report_command(
    file: FileArg,
    output: Annotated[
        str,
        typer.Option("--output", "-o", metavar="PATH", show_default=False,
                     help="The HTML file to write (e.g. report.html); written atomically, never over FILE."),
    ],
    unroll: Annotated[
        bool, typer.Option("--unroll", help="Draw every node (a graph above 30 nodes otherwise draws each loop's "
                                            "repeated iterations once, with their count).")
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
    max_memory: MaxMemoryOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Write an HTML report of FILE's run: its source linked to the graph's nodes, the tensor table, the graph
    (pan, zoom, click a node for its saved tensors, inputs and gradients), the backward trace step by step,
    and the errors with both ends. One self-contained page: it fetches nothing."""

    def body() -> ExitStatus:
        from .app import options as opt
        from .app.graph import check_output_path
        from .app.outpaths import refuse_input
        from .app.problems import UsageProblem

        kind = opt.check_expect_error(expect_error)
        if output in ("-", ""):
            raise UsageProblem(f"--output {output!r}: give a file name such as report.html")
        check_output_path(output)
        refuse_input(output, file, "--output", "the report")
        options = _run_options(
            sets=sets, requires_grad=requires_grad, retain_grad=retain_grad, no_grad=no_grad,
            backward=backward, gradient=gradient, inputs=inputs, retain_graph=retain_graph,
            create_graph=create_graph, repeat=repeat, dtype=dtype, seed=seed, max_elements=max_elements,
            max_steps=max_steps, timeout=timeout, trace=True, max_call_depth=max_call_depth,
            max_output=max_output, max_source=max_source, max_depth=max_depth, max_memory=max_memory,
        )
        import dataclasses

        from .app.graph import build_graph, render_with_dot, roll_loops, write_atomic
        from .app.render import graphfmt
        from .app.render.console import make_console
        from .app.render.report_html import render_html
        from .app.report import build_report
        from .app.run import execute, exit_status
        from .app.why import annotate

        result = execute(file, options, argv=invocation("report", file))
        annotate(result, dataclasses.replace(options, trace=False))
        graph = build_graph(result)
        drawn = graph if unroll else roll_loops(graph, result.source)
        svg, problem = None, None
        if graph.nodes:
            try:
                svg = render_with_dot(graphfmt.to_dot(drawn, show_saved=True, saved_nodes=False), "svg").decode("utf-8", "replace")
            except Exception as e:  # noqa: BLE001 - no renderer: the page still has everything but the drawing
                problem = f"the graph could not be drawn: {getattr(e, 'message', e)}"
        page = render_html(build_report(result, graph, svg, problem, drawn=drawn))
        write_atomic(output, page.encode("utf-8"), "--output")
        err = make_console(stderr=True)
        from rich.text import Text

        err.print(Text(f"wrote {output}: {len(graph.nodes)} graph nodes, {len(result.trace or ())} backward steps, "
                       f"{len(result.tensors)} tensors" + ("" if result.error is None else
                                                          f"; the file failed ({result.error.kind})")))
        return exit_status(result, kind)

    _guarded(debug, body)
