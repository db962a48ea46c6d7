"""gradcli: a command-line PyTorch-autograd explorer.

Runs small expression files written in PyTorch syntax on gradcli's own numpy
autograd engine and shows what autograd did.  This package module imports
nothing heavy, so ``gradcli --help`` stays fast (numpy is loaded only by
commands that run a file); it pins numpy's and OpenBLAS's code paths before
numpy can load (:mod:`gradcli.host`: the same bits on every host).
"""

from . import host as _host

_host.pin()

__version__ = "0.1.0"
