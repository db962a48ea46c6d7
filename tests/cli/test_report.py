"""`gradcli report FILE -o report.html` (issue 23, must-have 6): one self-contained page, checked as a file and
in a real browser (Debian's headless Chromium through chromedriver, as .ci/run installs them).

The page's facts come from the run and its graph (`gradcli run --json`, `gradcli graph --format json`, held
to PyTorch by their own tests); these tests check that the page shows them and that its controls work: a
click on a node shows its saved tensors, inputs, line and the gradients the backward trace saw there; a
source line selects its node; the trace steps forward and back; the error shows both ends of its story.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from gradcli.cli import app

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "app" / "data" / "graph_real"  # copies of shared/conformance/real_code files
SNIPPETS = ROOT / "tests" / "conformance" / "real_snippets"
NAN_SAMPLE = ROOT / "samples" / "nan_gradient.py"

#: three real snippets written by others: a tutorial's one-layer net, a forum in-place error, a GitHub
#: issue's masked torch.where
REAL_CASES = {
    "tutorial__basics_autogradqs": REAL / "tutorial__basics_autogradqs.py",
    "qa_errors__forum_inplace_exp_output_169583": REAL / "qa_errors__forum_inplace_exp_output_169583.py",
    "gh_issues__issue_108618_where_log2_nan": SNIPPETS / "gh_issues__issue_108618_where_log2_nan.py",
}


def _data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="gradcli-data">(.*?)</script>', page, re.S)
    assert m, "the page carries its data"
    return json.loads(m.group(1))


def _report(runner, tmp_path, path: Path, *extra: str):
    out = tmp_path / f"{path.stem}.html"
    r = runner.invoke(app, ["report", str(path), "-o", str(out), *extra])
    return r, out


@pytest.mark.parametrize("case", sorted(REAL_CASES))
def test_report_holds_the_run_and_the_graph(runner, tmp_path, case):
    path = REAL_CASES[case]
    r, out = _report(runner, tmp_path, path)
    run = json.loads(runner.invoke(app, ["run", str(path), "--json"]).stdout)
    graph = json.loads(runner.invoke(app, ["graph", str(path), "--format", "json"]).stdout)
    assert r.exit_code == (0 if run["ok"] else 1), r.stdout
    page = out.read_text(encoding="utf-8")
    data = _data(page)
    assert [t["name"] for t in data["tensors"]] == [t["name"] for t in run["tensors"]]
    assert [(t["requires_grad"], t["is_leaf"], t["grad_fn"]) for t in data["tensors"]] == \
        [(t["requires_grad"], t["is_leaf"], t["grad_fn"]) for t in run["tensors"]]
    assert [(n["id"], n["name"], n["line"]) for n in data["graph"]["nodes"]] == \
        [(n["id"], n["name"], n["line"]) for n in graph["nodes"]]
    assert data["ok"] == run["ok"] and (data["error"] is None) == (run["error"] is None)
    if run["error"]:
        assert (data["error"]["kind"], data["error"]["line"]) == (run["error"]["kind"], run["error"]["line"])
    # every graph node is in the SVG, by id
    for n in data["graph"]["nodes"]:
        assert f"<title>n{n['id']}</title>" in page
    assert data["trace"], "the backward ran: the trace has steps"


def test_the_page_is_self_contained(runner, tmp_path):
    r, out = _report(runner, tmp_path, NAN_SAMPLE)
    page = out.read_text(encoding="utf-8")
    assert r.exit_code == 0
    for fetch in ("<script src", "<link", "<img", "<iframe", "url(", "@import", "fetch(", "XMLHttpRequest"):
        assert fetch not in page, fetch
    # the only addresses are the SVG's XML namespaces (names, never fetched)
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg",
                                                               "http://www.w3.org/1999/xlink"}


def test_user_text_cannot_become_markup(runner, tmp_path):
    f = tmp_path / "evil.py"
    f.write_text('x = torch.tensor([1.0], requires_grad=True)\nprint("</script><script>alert(1)</script>")\n'
                 "y = (x * 2).sum()  # </script><b>bold</b>\ny.backward()\n", encoding="utf-8")
    r, out = _report(runner, tmp_path, f)
    page = out.read_text(encoding="utf-8")
    assert r.exit_code == 0
    assert "<script>alert(1)" not in page and "<b>bold</b>" not in page
    assert _data(page)["stdout"] == "</script><script>alert(1)</script>\n"


def test_bad_invocations(runner, tmp_path):
    f = tmp_path / "a.py"
    f.write_text("x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n", encoding="utf-8")
    r = runner.invoke(app, ["report", str(f), "-o", str(f)])
    assert r.exit_code == 2 and f.read_text().startswith("x = ")  # never over the input
    r = runner.invoke(app, ["report", str(f), "-o", str(tmp_path / "no" / "such" / "r.html")])
    assert r.exit_code == 2 and "does not exist" in r.stdout + r.stderr
    r = runner.invoke(app, ["report", str(f)])
    assert r.exit_code == 2  # --output is required
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]  # nothing half-written


# --- in a real browser ----------------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; "
                    ".ci/run installs them)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        opts.add_argument(arg)
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield drv
    finally:
        drv.quit()


def _open(browser, page: Path):
    browser.get(page.as_uri())
    return browser


def _node(browser, name: str, line=None):
    from selenium.webdriver.common.by import By

    for g in browser.find_elements(By.CSS_SELECTOR, "#graph-wrap g.node[data-node]"):
        label = g.get_attribute("aria-label") or ""
        if label.startswith(name) and (line is None or f"line {line}" in label):
            return g
    raise AssertionError(f"no node {name} in the page")


def test_clicking_a_node_shows_its_saved_tensors_inputs_and_gradients(runner, tmp_path, browser):
    from selenium.webdriver.common.by import By

    r, out = _report(runner, tmp_path, NAN_SAMPLE)
    assert r.exit_code == 0
    b = _open(browser, out)
    # nothing was fetched: the page's only resource is itself
    assert b.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert b.find_element(By.ID, "details-empty").is_displayed()
    _node(b, "SqrtBackward0").click()
    details = b.find_element(By.ID, "details").text
    assert "SqrtBackward0" in details and "(root)" in details
    assert "line 7: r = torch.sqrt(d)" in details
    saved = b.find_element(By.ID, "node-saved").text
    assert "freed" in saved  # the backward ran without retain_graph: PyTorch frees what it saved
    # the gradient that reached sqrt: d(sum(r * 0))/dr = 0, and what it sent to d: 0 / (2·sqrt(d)) = [nan, 0]
    grads = b.find_element(By.ID, "node-grads").text
    assert "in tensor([0., 0.])" in grads and "AccumulateGrad(d) tensor([nan, 0.])" in grads
    assert _node(b, "SqrtBackward0").get_attribute("aria-pressed") == "true"
    # the node's line is shown in the source, marked without colour (aria-current and a marker)
    assert b.find_element(By.ID, "L7").get_attribute("aria-current") == "location"
    b.save_screenshot(str(tmp_path / "node.png"))


def test_source_line_selects_its_node_and_keyboard_works(runner, tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    r, out = _report(runner, tmp_path, NAN_SAMPLE)
    b = _open(browser, out)
    b.find_element(By.CSS_SELECTOR, "#L4 .code").click()
    title = b.find_element(By.ID, "node-title").text
    assert title.startswith("▶ ") and title.split()[1] in ("Log2Backward0", "MulBackward0", "WhereBackward0")
    # keyboard: a node takes focus and Enter selects it
    g = _node(b, "AccumulateGrad (d)")
    b.execute_script("arguments[0].focus()", g)
    b.switch_to.active_element.send_keys(Keys.ENTER)
    assert "AccumulateGrad" in b.find_element(By.ID, "node-title").text
    assert "d [2]" in b.find_element(By.ID, "details").text


def test_trace_steps_forward_and_back(runner, tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    r, out = _report(runner, tmp_path, NAN_SAMPLE)
    b = _open(browser, out)
    steps = b.find_elements(By.CSS_SELECTOR, "#trace ol li[data-step]")
    assert len(steps) == len(_data(out.read_text(encoding="utf-8"))["trace"]) > 2
    b.find_element(By.ID, "next").click()
    assert b.find_element(By.ID, "step-label").text.startswith("step 1 of ")
    assert steps[0].get_attribute("aria-current") == "step"
    b.find_element(By.ID, "next").click()
    assert steps[1].get_attribute("aria-current") == "step" and steps[0].get_attribute("aria-current") is None
    b.find_element(By.CSS_SELECTOR, "#trace ol").send_keys(Keys.ARROW_LEFT)
    assert steps[0].get_attribute("aria-current") == "step"
    # a step of a node the final graph holds selects that node (SumBackward0 of `y.sum()` is not drawn: the
    # graph starts at the file's named tensors)
    trace = _data(out.read_text(encoding="utf-8"))["trace"]
    k = next(i for i, s in enumerate(trace) if s["node_id"] is not None)
    steps[k].click()
    assert trace[k]["node"] in b.find_element(By.ID, "node-title").text
    assert b.find_element(By.ID, "step-label").text.startswith(f"step {trace[k]['step']} of ")


def test_error_shows_both_ends_and_links_to_lines(runner, tmp_path, browser):
    from selenium.webdriver.common.by import By

    path = REAL_CASES["qa_errors__forum_inplace_exp_output_169583"]
    r, out = _report(runner, tmp_path, path)
    assert r.exit_code == 1
    b = _open(browser, out)
    err = b.find_element(By.ID, "error").text
    assert "INPLACE_MODIFIED AT LINE 9" in err.upper()
    assert "saved: line 4" in err and "modified: line 8" in err
    b.find_element(By.CSS_SELECTOR, '#error a[data-line="8"]').click()
    assert b.find_element(By.ID, "L8").get_attribute("aria-current") == "location"


def test_zoom_changes_the_view(runner, tmp_path, browser):
    from selenium.webdriver.common.by import By

    r, out = _report(runner, tmp_path, NAN_SAMPLE)
    b = _open(browser, out)
    svg = b.find_element(By.CSS_SELECTOR, "#graph-wrap svg")

    def view():
        return [float(v) for v in b.execute_script("return arguments[0].getAttribute('viewBox')", svg).split()]

    before = view()
    b.find_element(By.ID, "zoom-in").click()
    after = view()
    assert after[2] < before[2] and after[3] < before[3]  # a smaller window on the graph: zoomed in
    b.find_element(By.ID, "zoom-reset").click()
    assert view() == before
