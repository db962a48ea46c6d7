"""--trace: the backward pass step by step (node order is PyTorch's: newest node first)."""

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

SRC = """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = (y ** 2).sum()
z.backward()
"""


def test_trace_lists_nodes_in_execution_order_with_gradients():
    r = run_file(SRC, "t.py", RunOptions(trace=True))
    assert r.ok
    assert [e["node"] for e in r.trace] == ["SumBackward0", "PowBackward0", "MulBackward0", "AccumulateGrad"]
    assert [e["line"] for e in r.trace][:3] == [3, 3, 2]
    mul = r.trace[2]
    assert mul["tensor"] == "y"
    assert mul["grad_in"][0].tolist() == [6.0, 12.0]  # d(sum y^2)/dy = 2y
    # times dy/dx = 3, as PyTorch prints the tensor (issue 19)
    assert mul["grad_out"] == ["-> AccumulateGrad(x): tensor([18., 36.])"]
    assert mul["grad_in_text"] == ["tensor([ 6., 12.])"]
    assert r.trace[3]["accumulated into"] == "x.grad"


def test_trace_off_records_nothing():
    r = run_file(SRC, "t.py", RunOptions())
    assert r.trace is None
