"""The HTML report: one self-contained page from :func:`gradcli.app.report.build_report`'s records.

Everything is inline -- style, script, the graph's SVG, the data (a ``<script type="application/json">``
block) -- and nothing is fetched: the page opens from a file with no network.  The script builds the page
from the data with ``textContent`` only (user text never becomes markup); the one piece of markup taken as
it is, the SVG, is Graphviz's output, which escapes every label.

What the page does (keyboard first; nothing depends on colour alone -- selection is also an outline, a
``▶`` marker and ``aria-selected``/``aria-current``):

* source lines that made nodes are buttons: activating one selects its first node;
* graph nodes are focusable (Tab, Enter/Space to select); the wheel or ``+``/``-``/``0`` zoom, dragging pans;
* the details panel shows the selected node: name, line (a link to the source), tensors, module, its
  saved tensors (freed ones marked), its inputs, and the gradients the backward trace saw there;
* the backward trace steps with Previous/Next (or ``←``/``→`` inside the trace), each step selecting its node;
* the error with both ends of its story (related lines link to the source), warnings, printed output.
"""

from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["render_html"]


def _svg_inline(svg: str) -> str:
    """Graphviz's SVG file -> an element to inline in HTML (no XML prolog or DOCTYPE)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


def _json_for_script(data: Any) -> str:
    # inside <script> only "</" and "<!--" could end or confuse the element: escape every "<"
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def render_html(report: dict) -> str:
    """The whole page (UTF-8 text) for one report record."""
    svg = _svg_inline(report.get("svg") or "")
    data = dict(report)
    data.pop("svg", None)
    title = html.escape(f"gradcli report: {report['file']}")
    return (_PAGE.replace("{{TITLE}}", title)
            .replace("{{SVG}}", svg)
            .replace("{{DATA}}", _json_for_script(data)))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
:root { --fg: #111; --muted: #555; --line: #ccc; --sel: #000; --bg: #fff; --soft: #f4f4f4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 8px 16px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0; }
#verdict { font-weight: 600; }
main { display: grid; grid-template-columns: minmax(280px, 1fr) minmax(360px, 1.4fr) minmax(280px, 1fr); gap: 0; min-height: 60vh; }
section { border-right: 1px solid var(--line); padding: 8px 12px; overflow: auto; max-height: 80vh; }
section:last-child { border-right: 0; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 8px 0; }
pre, code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
#source ol { list-style: none; margin: 0; padding: 0; }
#source li { display: grid; grid-template-columns: 3.2em 1fr; white-space: pre; }
#source .no { color: var(--muted); text-align: right; padding-right: .6em; user-select: none; }
#source li.made .code { cursor: pointer; text-decoration: underline dotted; }
#source li.current { outline: 2px solid var(--sel); background: var(--soft); }
#source li.current .no::before { content: "▶"; }
#graph-wrap { position: relative; border: 1px solid var(--line); height: 60vh; overflow: hidden; cursor: grab; touch-action: none; }
#graph-wrap svg { width: 100%; height: 100%; }
#graph-wrap g.node { cursor: pointer; }
#graph-wrap g.node:focus { outline: none; }
#graph-wrap g.node.on-line polygon, #graph-wrap g.node.on-line path { stroke-width: 2; stroke-dasharray: 1 3; }
#graph-wrap g.node:focus polygon, #graph-wrap g.node:focus path, #graph-wrap g.node:focus ellipse { stroke-width: 3; stroke-dasharray: 6 3; }
#graph-wrap g.node.selected polygon, #graph-wrap g.node.selected path, #graph-wrap g.node.selected ellipse { stroke-width: 4.5; stroke: #000; stroke-dasharray: none; }
.zoom { display: flex; gap: 4px; margin: 4px 0; }
button { font: inherit; padding: 2px 8px; border: 1px solid #888; background: #fafafa; border-radius: 3px; cursor: pointer; }
button:focus-visible, [tabindex]:focus-visible { outline: 3px solid #000; outline-offset: 1px; }
#details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
#details dt { color: var(--muted); }
#details dd { margin: 0; }
#details ul { margin: 2px 0; padding-left: 1.2em; }
.freed { text-decoration: line-through; }
.tag { display: inline-block; border: 1px solid #888; border-radius: 3px; padding: 0 4px; font-size: 11px; margin-left: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 3px 6px; vertical-align: top; }
td.mono { white-space: pre; }
.why { color: var(--muted); font-size: 12.5px; }
#trace ol { margin: 0; padding-left: 2.6em; }
#trace li { padding: 2px 4px; }
#trace li[aria-current="step"] { outline: 2px solid var(--sel); background: var(--soft); }
#trace li[aria-current="step"]::marker { content: "▶ "; }
.panel { border: 2px solid #000; padding: 8px 12px; margin: 8px 16px; }
.panel.error h2 { color: #000; }
.panel .hint::before { content: "hint: "; font-weight: 600; }
a.ln { color: inherit; }
footer { padding: 8px 16px; color: var(--muted); font-size: 12px; }
.below { padding: 0 16px 16px; }
@media (max-width: 1000px) { main { grid-template-columns: 1fr; } section { max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="verdict" role="status"></span></header>
<div id="problems"></div>
<main>
  <section id="source" aria-labelledby="h-source"><h2 id="h-source">Source</h2><ol></ol></section>
  <section id="graph" aria-labelledby="h-graph"><h2 id="h-graph">Graph (backward)</h2>
    <div class="zoom" role="toolbar" aria-label="zoom">
      <button type="button" id="zoom-in" aria-label="zoom in">+</button>
      <button type="button" id="zoom-out" aria-label="zoom out">&minus;</button>
      <button type="button" id="zoom-reset">fit</button>
      <span class="why" id="graph-note"></span>
    </div>
    <div id="graph-wrap" aria-label="the autograd graph: Tab to a node, Enter to select it; + and - zoom">{{SVG}}</div>
  </section>
  <section id="details" aria-labelledby="h-details" aria-live="polite"><h2 id="h-details">Node</h2>
    <p id="details-empty">Select a node in the graph, a source line, or a trace step.</p><div id="details-body"></div>
  </section>
</main>
<div class="below">
  <section id="tensors-sec" aria-labelledby="h-tensors"><h2 id="h-tensors">Tensors</h2><div id="tensors"></div></section>
  <section id="trace" aria-labelledby="h-trace"><h2 id="h-trace">Backward trace</h2>
    <div class="zoom"><button type="button" id="prev">&larr; Previous</button><button type="button" id="next">Next &rarr;</button>
    <span id="step-label" class="why" aria-live="polite"></span></div>
    <ol tabindex="0" aria-label="backward steps: left and right arrows move"></ol></section>
  <section id="output-sec" aria-labelledby="h-output"><h2 id="h-output">Printed output</h2><pre id="stdout"></pre></section>
</div>
<footer>Made by gradcli report. Self-contained: nothing on this page is fetched from the network.</footer>
<script type="application/json" id="gradcli-data">{{DATA}}</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("gradcli-data").textContent);
  var nodes = {}; data.graph.nodes.forEach(function (n) { nodes[n.id] = n; });
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function shape(s) { return s ? "[" + s.join(", ") + "]" : ""; }
  function py(b) { return b ? "True" : "False"; }
  function lineLink(line, label) {
    var a = el("a", {href: "#L" + line, "class": "ln", "data-line": line}, label || ("line " + line));
    a.addEventListener("click", function (ev) { ev.preventDefault(); showLine(line, true); });
    return a;
  }
  document.getElementById("title").textContent = "gradcli report: " + data.file;
  document.getElementById("verdict").textContent = data.ok ? "ok" : ("failed" + (data.error ? ": " + data.error.kind + (data.error.line ? " at line " + data.error.line : "") : ""));

  // --- source ---
  var srcList = document.querySelector("#source ol");
  var lineItems = {};
  data.source.forEach(function (ln) {
    var li = el("li", {id: "L" + ln.line});
    li.appendChild(el("span", {"class": "no", "aria-hidden": "true"}, ln.line));
    var code = el("span", {"class": "code"}, ln.text || " ");
    li.appendChild(code);
    if (ln.nodes.length) {
      li.classList.add("made");
      code.setAttribute("tabindex", "0");
      code.setAttribute("role", "button");
      code.setAttribute("aria-label", "line " + ln.line + ": " + ln.text.trim() + " (made " + ln.nodes.map(function (i) { return nodes[i].name; }).join(", ") + ")");
      var go = function () { select(ln.nodes[0], "source"); };
      code.addEventListener("click", go);
      code.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
    }
    lineItems[ln.line] = li;
    srcList.appendChild(li);
  });
  function showLine(line, focus) {
    Object.keys(lineItems).forEach(function (k) { lineItems[k].classList.remove("current"); lineItems[k].removeAttribute("aria-current"); });
    var li = lineItems[line];
    if (!li) return;
    li.classList.add("current"); li.setAttribute("aria-current", "location");
    li.scrollIntoView({block: "nearest"});
    if (focus) { var c = li.querySelector("[tabindex]"); if (c) c.focus(); }
    svgNodes.forEach(function (g) { var n = nodes[g.getAttribute("data-node")]; g.classList.toggle("on-line", !!n && n.line === line); });
  }

  // --- graph: the SVG's nodes become focusable buttons; pan and zoom by the viewBox ---
  var wrap = document.getElementById("graph-wrap");
  var svg = wrap.querySelector("svg");
  var svgNodes = [];
  if (svg) {
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.querySelectorAll("g.node").forEach(function (g) {
      var t = g.querySelector("title");
      var m = t && /^n(\\d+)$/.exec(t.textContent.trim());
      if (!m || !nodes[m[1]]) return;
      var n = nodes[m[1]];
      g.setAttribute("data-node", n.id);
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", n.name + (n.names.length ? " (" + n.names.join(", ") + ")" : "") + (n.line ? ", line " + n.line : ""));
      g.addEventListener("click", function (ev) { ev.stopPropagation(); select(n.id, "graph"); });
      g.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(n.id, "graph"); } });
      svgNodes.push(g);
    });
  } else {
    wrap.appendChild(el("p", {"class": "why"}, data.svg_problem || "no graph: no tensor of the file has a grad_fn"));
  }
  document.getElementById("graph-note").textContent = data.graph.notes.join("; ");
  var vb = svg && svg.viewBox && svg.viewBox.baseVal ? [svg.viewBox.baseVal.x, svg.viewBox.baseVal.y, svg.viewBox.baseVal.width, svg.viewBox.baseVal.height] : null;
  var home = vb ? vb.slice() : null;
  function setVB() { if (svg && vb) svg.setAttribute("viewBox", vb.join(" ")); }
  function zoom(f, cx, cy) {
    if (!vb) return;
    cx = cx === undefined ? vb[0] + vb[2] / 2 : cx; cy = cy === undefined ? vb[1] + vb[3] / 2 : cy;
    vb = [cx - (cx - vb[0]) * f, cy - (cy - vb[1]) * f, vb[2] * f, vb[3] * f]; setVB();
  }
  document.getElementById("zoom-in").addEventListener("click", function () { zoom(0.8); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom(1.25); });
  document.getElementById("zoom-reset").addEventListener("click", function () { if (home) { vb = home.slice(); setVB(); } });
  wrap.addEventListener("keydown", function (ev) {
    if (ev.key === "+" || ev.key === "=") { zoom(0.8); ev.preventDefault(); }
    else if (ev.key === "-") { zoom(1.25); ev.preventDefault(); }
    else if (ev.key === "0") { if (home) { vb = home.slice(); setVB(); } ev.preventDefault(); }
  });
  wrap.addEventListener("wheel", function (ev) {
    if (!vb || !svg) return; ev.preventDefault();
    var r = svg.getBoundingClientRect();
    var cx = vb[0] + (ev.clientX - r.left) / r.width * vb[2], cy = vb[1] + (ev.clientY - r.top) / r.height * vb[3];
    zoom(ev.deltaY < 0 ? 0.85 : 1 / 0.85, cx, cy);
  }, {passive: false});
  var drag = null;
  wrap.addEventListener("pointerdown", function (ev) { if (ev.target.closest && ev.target.closest("g.node")) return; drag = {x: ev.clientX, y: ev.clientY, vb: vb && vb.slice()}; });
  window.addEventListener("pointerup", function () { drag = null; });
  wrap.addEventListener("pointermove", function (ev) {
    if (!drag || !drag.vb || !svg) return;
    var r = svg.getBoundingClientRect();
    vb[0] = drag.vb[0] - (ev.clientX - drag.x) / r.width * vb[2];
    vb[1] = drag.vb[1] - (ev.clientY - drag.y) / r.height * vb[3]; setVB();
  });

  // --- details of a node ---
  var stepsOf = {};
  data.trace.forEach(function (s) { if (s.node_id !== null && s.node_id !== undefined) (stepsOf[s.node_id] = stepsOf[s.node_id] || []).push(s); });
  var body = document.getElementById("details-body");
  function row(dl, k, v) { dl.appendChild(el("dt", null, k)); var dd = el("dd"); if (v instanceof Node) dd.appendChild(v); else dd.textContent = v; dl.appendChild(dd); }
  function select(id, from) {
    var n = nodes[id]; if (!n) return;
    svgNodes.forEach(function (g) { var on = g.getAttribute("data-node") === String(id); g.classList.toggle("selected", on); g.setAttribute("aria-pressed", on ? "true" : "false"); });
    document.getElementById("details-empty").hidden = true;
    body.textContent = "";
    body.appendChild(el("h3", {id: "node-title"}, "▶ " + n.name + (n.root ? " (root)" : "")));
    var dl = el("dl");
    row(dl, "kind", n.kind === "accumulate" ? "AccumulateGrad: the leaf's .grad gets the gradient" : (n.kind === "view" ? "view" : "operation"));
    if (n.names.length) row(dl, "tensor", n.names.join(", ") + (n.shape ? " " + shape(n.shape) : ""));
    if (n.line) row(dl, "line", lineLink(n.line, "line " + n.line + ": " + ((data.source[n.line - 1] || {}).text || "").trim()));
    if (n.module) row(dl, "module", n.module);
    if (n.repeat) row(dl, "loop", "× " + n.repeat + ": this node stands for the same node of each iteration of the loop at line " + n.loop_line + " (graph --unroll draws them all); the gradients below are each iteration's");
    var saved = el("ul", {id: "node-saved"});
    n.saved.forEach(function (s) {
      var li = el("li", {"class": s.freed ? "freed" : ""}, s.name + " " + shape(s.shape));
      if (s.freed) li.appendChild(el("span", {"class": "tag"}, "freed"));
      saved.appendChild(li);
    });
    row(dl, "saved", n.saved.length ? saved : "nothing");
    var ins = el("ul");
    n.next.forEach(function (c, i) {
      var li = el("li");
      if (c === null || c === undefined) li.textContent = "input " + i + ": no gradient needed";
      else {
        var b = el("button", {type: "button"}, nodes[c].name + (nodes[c].names.length ? " (" + nodes[c].names.join(", ") + ")" : ""));
        b.addEventListener("click", function () { select(c, "details"); });
        li.appendChild(document.createTextNode("input " + i + ": ")); li.appendChild(b);
      }
      ins.appendChild(li);
    });
    row(dl, "inputs", n.next.length ? ins : "none (a leaf)");
    var st = stepsOf[id] || [];
    if (st.length) {
      var gl = el("ul", {id: "node-grads"});
      st.forEach(function (s) {
        gl.appendChild(el("li", {"class": "mono"}, "step " + s.step + ": in " + s.grad_in.join(", ") +
          (s.grad_out.length ? "; out " + s.grad_out.map(function (o) { return "→ " + o.to_name + " " + o.grad; }).join("; ") : "") +
          (s.accumulated_into ? "; into " + s.accumulated_into + ".grad" : "")));
      });
      row(dl, "gradients", gl);
    } else row(dl, "gradients", "no backward step ran this node");
    body.appendChild(dl);
    if (n.line) showLine(n.line, false);
    if (from !== "trace") syncStep(id);
  }

  // --- tensors ---
  var tb = el("table"); var head = el("tr");
  ["name", "shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "retains_grad", "data", "grad"].forEach(function (h) { head.appendChild(el("th", {scope: "col"}, h)); });
  var thead = el("thead"); thead.appendChild(head); tb.appendChild(thead);
  var tbody = el("tbody");
  data.tensors.forEach(function (t) {
    var tr = el("tr");
    [t.name, shape(t.shape), t.dtype, py(t.requires_grad), py(t.is_leaf), t.grad_fn || "None", py(t.retains_grad)].forEach(function (v) { tr.appendChild(el("td", null, v)); });
    tr.appendChild(el("td", {"class": "mono"}, t.data));
    tr.appendChild(el("td", {"class": "mono"}, t.grad === null ? "None" : t.grad));
    tbody.appendChild(tr);
    if (t.why) {
      var w = el("tr"); var td = el("td", {colspan: "9", "class": "why"});
      td.appendChild(document.createTextNode("why " + t.name + ".grad (" + t.why.kind + "): " + t.why.message + " "));
      if (t.why.line) td.appendChild(lineLink(t.why.line));
      if (t.why.hint) td.appendChild(document.createTextNode(" hint: " + t.why.hint));
      w.appendChild(td); tbody.appendChild(w);
    }
  });
  tb.appendChild(tbody);
  document.getElementById("tensors").appendChild(data.tensors.length ? tb : el("p", null, "no tensors"));

  // --- trace ---
  var tl = document.querySelector("#trace ol"); var items = []; var cur = -1;
  data.trace.forEach(function (s, i) {
    var li = el("li", {"data-step": s.step},
      s.node + (s.line ? " (line " + s.line + ")" : "") + ": in " + s.grad_in.join(", ") +
      (s.accumulated_into ? " → " + s.accumulated_into + ".grad" : ""));
    li.addEventListener("click", function () { go(i); });
    tl.appendChild(li); items.push(li);
  });
  if (!data.trace.length) tl.appendChild(el("li", null, "no backward pass ran"));
  if (data.trace_left_out) tl.appendChild(el("li", null, data.trace_left_out + " more steps not listed"));
  function go(i) {
    if (!items.length) return;
    cur = Math.max(0, Math.min(items.length - 1, i));
    items.forEach(function (li, k) { if (k === cur) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current"); });
    var s = data.trace[cur];
    document.getElementById("step-label").textContent = "step " + s.step + " of " + data.trace.length + ": " + s.node;
    items[cur].scrollIntoView({block: "nearest"});
    if (s.node_id !== null && s.node_id !== undefined) select(s.node_id, "trace");
    else if (s.line) showLine(s.line, false);
  }
  function syncStep(id) { var k = data.trace.findIndex(function (s) { return s.node_id === id; }); if (k >= 0) { cur = k; items.forEach(function (li, j) { if (j === k) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current"); }); } }
  document.getElementById("prev").addEventListener("click", function () { go(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { go(cur + 1); });
  tl.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") { go(cur + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") { go(cur - 1); ev.preventDefault(); }
  });

  // --- error, warnings, output ---
  var probs = document.getElementById("problems");
  if (data.error) {
    var p = el("div", {"class": "panel error", id: "error", role: "alert"});
    p.appendChild(el("h2", null, "error: " + data.error.kind + (data.error.line ? " at line " + data.error.line : "")));
    p.appendChild(el("p", null, data.error.message));
    if (data.error.line) { var q = el("p"); q.appendChild(lineLink(data.error.line, "line " + data.error.line + ": " + ((data.source[data.error.line - 1] || {}).text || "").trim())); p.appendChild(q); }
    if (data.error.related.length) {
      var ul = el("ul");
      data.error.related.forEach(function (r) {
        var li = el("li", null, r.role + ": ");
        if (r.line) li.appendChild(lineLink(r.line, "line " + r.line + ": " + ((data.source[r.line - 1] || {}).text || "").trim()));
        if (r.text) li.appendChild(document.createTextNode(" — " + r.text));
        ul.appendChild(li);
      });
      p.appendChild(ul);
    }
    if (data.error.hint) p.appendChild(el("p", {"class": "hint"}, data.error.hint));
    probs.appendChild(p);
  }
  data.warnings.forEach(function (w) {
    var p = el("div", {"class": "panel warning", role: "note"});
    p.appendChild(el("h2", null, "warning: " + w.kind + (w.line ? " at line " + w.line : "")));
    p.appendChild(el("p", null, w.message));
    probs.appendChild(p);
  });
  data.forward_nonfinite.forEach(function (o) {
    var p = el("div", {"class": "panel", role: "note"});
    p.appendChild(el("h2", null, "first " + (o.kind === "nan" ? "NaN" : "inf") + " of the forward"));
    var q = el("p", null, o.op + " (" + o.node + ") "); if (o.line) q.appendChild(lineLink(o.line)); p.appendChild(q);
    probs.appendChild(p);
  });
  document.getElementById("stdout").textContent = data.stdout || "(nothing printed)";
})();
</script>
</body>
</html>
"""
