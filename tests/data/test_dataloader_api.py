"""torch.utils.data beyond the recorded cases: the dataset protocol (how a file's own Dataset classes plug in),
IterableDataset, bad input with its kind, line and PyTorch's message, and the sandbox.

The conformance cases (tests/conformance/data/) hold PyTorch's recorded behaviour; the error messages of their
error_* cases are compared here with what PyTorch said."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from gradcli import api, data
from gradcli.data import protocol
from gradcli.errors import ArgumentTypeError
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

torch = api.torch_namespace()
ROOT = Path(__file__).resolve().parents[1] / "conformance" / "data"
ERROR_CASES = sorted(ROOT.glob("error_*.py"))


def run(src: str):
    return run_file(textwrap.dedent(src), "test.py", RunOptions(timeout=30, max_steps=200_000))


# --- the protocol ----------------------------------------------------------------------------------------


class Squares(data.Dataset):
    """What a file's ``class Squares(Dataset)`` is to the engine: a subclass with __len__/__getitem__."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError("index out of range")
        return torch.tensor(float(i * i)), i


class Count(data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([torch.tensor(float(i)) for i in range(self.n)])


def test_a_dataset_subclass_plugs_in():
    loader = data.DataLoader(Squares(5), batch_size=2)
    assert len(loader) == 3
    batches = [(x.tolist(), i.tolist()) for x, i in loader]
    assert batches == [([0.0, 1.0], [0, 1]), ([4.0, 9.0], [2, 3]), ([16.0], [4])]


def test_an_iterable_dataset_plugs_in():
    loader = data.DataLoader(Count(5), batch_size=2)
    assert [b.tolist() for b in loader] == [[0.0, 1.0], [2.0, 3.0], [4.0]]
    assert [b.tolist() for b in data.DataLoader(Count(5), batch_size=2, drop_last=True)] == [[0.0, 1.0], [2.0, 3.0]]
    assert len(data.DataLoader(Count(5), batch_size=2)) == 3 if hasattr(Count, "__len__") else True
    assert [b.tolist() for b in data.DataLoader(Count(2), batch_size=None)] == [0.0, 1.0]


def test_iterable_dataset_refuses_shuffle_and_workers():
    with pytest.raises(Exception, match="expected unspecified shuffle option"):
        data.DataLoader(Count(3), shuffle=True)
    with pytest.raises(Exception) as e:
        data.DataLoader(Count(3), num_workers=2)
    assert e.value.kind == "unsupported"


def test_base_resolver_lets_foreign_instances_count_as_datasets():
    class Foreign:  # an instance the language layer builds without subclassing the engine's classes
        def __iter__(self):
            return iter([torch.ones(1)])

    obj = Foreign()
    assert not protocol.is_iterable_dataset(obj)
    protocol.register_base_resolver(lambda o: (data.IterableDataset,) if isinstance(o, Foreign) else None)
    try:
        assert protocol.is_iterable_dataset(obj) and protocol.is_dataset(obj)
        assert [b.tolist() for b in data.DataLoader(obj)] == [[[1.0]]]
    finally:
        protocol._resolvers.clear()


def test_protocol_errors_are_pytorchs():
    with pytest.raises(ArgumentTypeError, match="object of type 'int' has no len()"):
        protocol.length(5)
    with pytest.raises(ArgumentTypeError, match="'int' object is not subscriptable"):
        protocol.item(5, 0)
    with pytest.raises(ArgumentTypeError, match="'int' object is not iterable"):
        protocol.iterate(5)


def test_base_dataset_getitem_is_not_implemented():
    with pytest.raises(Exception, match="Subclasses of Dataset should implement __getitem__"):
        data.Dataset()[0]


def test_workers_load_in_process_with_the_same_batches():
    torch.manual_seed(0)
    a = [b[0].tolist() for b in data.DataLoader(data.TensorDataset(torch.arange(9)), batch_size=4, shuffle=True)]
    torch.manual_seed(0)
    b = [b[0].tolist() for b in data.DataLoader(data.TensorDataset(torch.arange(9)), batch_size=4, shuffle=True,
                                                num_workers=2)]
    assert a == b


# --- bad input: recorded messages, and more --------------------------------------------------------------


@pytest.mark.parametrize("path", ERROR_CASES, ids=[p.stem for p in ERROR_CASES])
def test_message_is_pytorchs(path: Path):
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))["error"]
    r = run_file(path.read_text(encoding="utf-8"), path.name, RunOptions(timeout=30))
    assert not r.ok
    assert (r.error.kind, r.error.line) == (want["kind"], want["line"])
    if want["kind"] != "shape":  # the stack error is gradcli's own wording of PyTorch's (same kind and line)
        assert r.error.message == want["message"]


BAD = {
    "tensordataset_empty_len": ("ds = torch.utils.data.TensorDataset()\nn = len(ds)", "index", 2,
                                "tuple index out of range"),
    "tensordataset_non_tensor": ("ds = torch.utils.data.TensorDataset([1, 2])", "runtime", 1, "size"),
    "num_workers_negative": ("l = torch.utils.data.DataLoader([1], num_workers=-1)", "runtime", 1,
                             "num_workers option should be non-negative"),
    "persistent_without_workers": ("l = torch.utils.data.DataLoader([1], persistent_workers=True)", "runtime", 1,
                                   "persistent_workers option needs num_workers > 0"),
    "batch_size_none_drop_last": ("l = torch.utils.data.DataLoader([1], batch_size=None, drop_last=True)",
                                  "runtime", 1, "batch_size=None option disables auto-batching"),
    "drop_last_not_bool": ("l = torch.utils.data.DataLoader([1], drop_last=1)", "runtime", 1,
                           "drop_last should be a boolean value, but got drop_last=1"),
    "replacement_not_bool": ("s = torch.utils.data.RandomSampler([1, 2], replacement=1)", "type", 1,
                             "replacement should be a boolean value"),
    "num_samples_zero": ("s = torch.utils.data.RandomSampler([1, 2], num_samples=0)", "runtime", 1,
                         "num_samples should be a positive integer value, but got num_samples=0"),
    "random_split_fraction": ("a = torch.utils.data.random_split([1, 2, 3], [1.5, -0.5])", "runtime", 1,
                              "Fraction at index 0 is not between 0 and 1"),
    "concat_empty": ("c = torch.utils.data.ConcatDataset([])", "assertion", 1,
                     "datasets should not be an empty iterable"),
    "collate_fn_raises": ("def bad(batch):\n    return batch[10]\nl = torch.utils.data.DataLoader([1, 2], "
                          "batch_size=2, collate_fn=bad)\nfor b in l:\n    print(b)", "index", 2, None),
    "getitem_in_sampler_str": ("l = torch.utils.data.DataLoader([1, 2], sampler=['a'])\nfor b in l:\n    print(b)",
                               "type", 2, "list indices must be integers or slices, not str"),
    "set_dataset": ("l = torch.utils.data.DataLoader([1])\nl.dataset = [2]", "runtime", 2,
                    "dataset attribute should not be set after DataLoader is initialized"),
    "set_unknown": ("l = torch.utils.data.DataLoader([1])\nl.shuffle = True", "runtime", 2, None),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_a_clean_error(name):
    src, kind, line, message = BAD[name]
    r = run(src + "\nprint('after')\n")
    assert not r.ok, name
    assert (r.error.kind, r.error.line) == (kind, line), r.error
    if message is not None:
        assert message in r.error.message, r.error.message
    assert "after" not in r.stdout


# --- sandbox ---------------------------------------------------------------------------------------------

SETUP = ("ds = torch.utils.data.TensorDataset(torch.arange(4.0))\n"
         "loader = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True)\n")

ATTEMPTS = {
    "loader_dict": "d = loader.__dict__\n",
    "loader_class": "c = loader.__class__\n",
    "loader_private": "s = loader._index_sampler\n",
    "loader_sampler_private": "n = loader.sampler._num_samples\n",
    "loader_iter_method": "f = loader.__iter__\n",
    "sampler_generator_engine": "g = loader.sampler.generator\ne = g.get_state\n",
    "dataset_tensors_class": "t = ds.tensors.__class__\n",
    "dataset_private_attr": "ds._x = 1\n",
    "collate_fn_globals": "g = loader.collate_fn.__globals__\n",
    "collate_fn_module": "m = loader.collate_fn.__module__\n",
    "module_walk": "m = torch.utils.data.dataloader\n",
    "module_protocol": "p = torch.utils.data.protocol\n",
    "module_private": "m = torch.utils.data._utils\n",
    "class_subclasses": "s = torch.utils.data.Dataset.__subclasses__()\n",
    "class_mro_runtime": "m = torch.utils.data.DataLoader.mro()\n",
    "iterator_frame": "for b in loader:\n    f = b.__class__\n",
    "set_collate_fn": "loader.collate_fn = print\n",
}


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_attempt_refused(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(SETUP + ATTEMPTS[name] + "print('the attempt did not stop the run')\n")
    assert not r.ok, f"{name}: the attempt ran to completion"
    assert r.error.kind in {"unsupported", "runtime", "type", "name"}, r.error
    assert "the attempt did not stop the run" not in r.stdout
    assert list(tmp_path.iterdir()) == []


def test_builtins_as_collate_fn_are_harmless(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(SETUP + "for b in torch.utils.data.DataLoader([1, 2, 3], batch_size=2, collate_fn=len):\n    print(b)\n")
    assert r.ok and r.stdout == "2\n1\n"
    assert list(tmp_path.iterdir()) == []


def test_batches_are_made_at_the_for_line():
    """The interpreter fetches each item at the for statement's line: a batch's provenance (why, warnings)
    is the loop line, not the last statement of the previous pass."""
    r = run("loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(4, 2)), "
            "batch_size=2)\nwith torch.no_grad():\n    for (xb,) in loader:\n        y = xb * 2\n        z = y + 1\n")
    assert r.ok
    made = getattr(dict(r.tensors)["xb"], "_nograd", None)  # where a tensor made with grad off was made
    assert made is not None and made[0] == 3
