"""Shuffling consumes the random stream exactly as PyTorch's (data/shuffle_cases.json, record_shuffle.py):
randperm's values and word count, RandomSampler's seed draw, and whole shuffled DataLoader passes with the
stream position after them.  No PyTorch needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli import api, data
from gradcli.autograd import random as R

DATA = json.loads((Path(__file__).with_name("data") / "shuffle_cases.json").read_text(encoding="utf-8"))
torch = api.torch_namespace()


@pytest.mark.parametrize("case", DATA["randperm"], ids=lambda c: f"seed{c['seed']}-n{c['n']}")
def test_randperm_matches_pytorch(case):
    g = R.Generator(case["seed"])
    perm = g.randperm(case["n"]).tolist()
    if case["perm"] is not None:
        assert perm == case["perm"]
    assert perm[:20] == case["head"]
    assert sum(i * v for i, v in enumerate(perm)) == case["sum_sq"]
    assert sorted(perm) == list(range(case["n"]))
    assert g.randint(0, 2**30, (2,)).tolist() == case["probe"]  # the same number of words consumed


@pytest.mark.parametrize("case", DATA["seed_draw"], ids=lambda c: f"seed{c['seed']}")
def test_seed_draw_matches_pytorch(case):
    g = R.Generator(case["seed"])
    assert [g.random_int64() for _ in range(3)] == case["draws"]


@pytest.mark.parametrize("case", DATA["loader"],
                         ids=lambda c: f"seed{c['seed']}-n{c['n']}-bs{c['batch_size']}-drop{c['drop_last']}")
def test_shuffled_loader_matches_pytorch(case):
    torch.manual_seed(case["seed"])
    loader = data.DataLoader(data.TensorDataset(torch.arange(case["n"])), batch_size=case["batch_size"],
                             shuffle=True, drop_last=case["drop_last"])
    orders = [[b[0].tolist() for b in loader] for _ in range(case["passes"])]
    assert orders == case["batches"]
    assert torch.rand(3).tolist() == case["after"]


def test_torch_randperm_function_uses_the_default_stream():
    torch.manual_seed(0)
    a = torch.randperm(10).tolist()
    g = R.Generator(0)
    assert a == g.randperm(10).tolist()
    assert torch.randperm(3, dtype=torch.float32).dtype is torch.float32


def test_an_explicit_generator_leaves_the_default_stream_alone():
    torch.manual_seed(5)
    before = R.default_generator.get_state()
    g = R.Generator(123)
    sampler = data.RandomSampler(list(range(8)), generator=g)
    assert sorted(iter(sampler)) == list(range(8))
    assert R.default_generator.get_state()[2] == before[2]


def test_torch_generator_is_a_cpu_generator():
    g = torch.Generator()
    assert g.initial_seed() == R.DEFAULT_SEED and str(g.device) == "cpu"
    assert g.manual_seed(42) is g and g.initial_seed() == 42
    with pytest.raises(Exception) as e:
        torch.Generator("cuda")
    assert e.value.kind == "runtime" and "Cannot get CUDA generator" in str(e.value)
    with pytest.raises(Exception, match="Cannot access accelerator device"):
        torch.Generator(5)
