"""gradcli: a command-line PyTorch-autograd explorer.

Runs small expression files written in PyTorch syntax on gradcli's own numpy
autograd engine and shows what autograd did.  This package module imports
nothing, so ``gradcli --help`` stays fast (numpy is loaded only by commands
that run a file).
"""

__version__ = "0.1.0"
