"""torch.nn: Module, Parameter, layers, activations, losses, init (SPEC §2b).

Sits above ``ops/`` and below ``api.py`` (DESIGN.md "Where real-code support goes"): plain Python over the
engine's public ops, so every layer records exactly the nodes PyTorch's records.  ``api.py`` builds the
``torch.nn`` / ``torch.nn.init`` namespaces a file sees from :data:`MEMBERS` and :data:`INIT_NAMES`, loading
a submodule only when a file first reads one of its names (most files use no layer: start-up time).

A new layer is one class in its module here plus its name in :data:`MEMBERS`.
"""

from __future__ import annotations

__all__ = ["MEMBERS", "INIT_NAMES", "UTILS_NAMES", "UNSUPPORTED"]

_ACTIVATIONS = ("ReLU", "ReLU6", "LeakyReLU", "ELU", "CELU", "SELU", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid",
                "Hardsigmoid", "Hardswish", "Hardtanh", "Softplus", "Softsign", "Tanhshrink", "LogSigmoid",
                "Softmax", "Softmin", "LogSoftmax")
_LOSSES = ("L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss",
           "NLLLoss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
           "MultiLabelSoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "MultiMarginLoss", "MultiLabelMarginLoss", "CTCLoss")

#: name of ``torch.nn`` -> the submodule of gradcli.nn defining it
MEMBERS: dict[str, str] = {
    "Module": "module",
    "Parameter": "parameter",
    "Identity": "linear",
    "Linear": "linear",
    "LazyLinear": "lazy",
    "Flatten": "flatten",
    "Unflatten": "flatten",
    "PairwiseDistance": "distance",
    "CosineSimilarity": "distance",
    "Conv1d": "conv",
    "Conv2d": "conv",
    "MaxPool1d": "pooling",
    "MaxPool2d": "pooling",
    "AvgPool2d": "pooling",
    "Dropout": "dropout",
    "Dropout1d": "dropout",
    "Dropout2d": "dropout",
    "Embedding": "sparse",
    "LayerNorm": "normalization",
    "BatchNorm1d": "batchnorm",
    "BatchNorm2d": "batchnorm",
    "Bilinear": "bilinear",
    **{n: "rnn" for n in ("RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNNCellBase")},
    "Sequential": "container",
    "ModuleList": "container",
    "ModuleDict": "container",
    "ParameterList": "container",
    **{n: "activation" for n in _ACTIVATIONS},
    **{n: "loss" for n in _LOSSES},
}

#: the functions of ``torch.nn.utils`` (gradcli.nn.utils)
UTILS_NAMES = ("clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters")

#: the functions of ``torch.nn.init`` (gradcli.nn.init)
INIT_NAMES = ("calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_", "xavier_uniform_",
              "xavier_normal_", "kaiming_uniform_", "kaiming_normal_")

#: names of PyTorch 2.13's ``torch.nn`` that gradcli does not implement (yet): reading one is an
#: ``unsupported`` error saying so, not Python's AttributeError
UNSUPPORTED = frozenset({
    "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool3d", "AvgPool1d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
    "AdaptiveMaxPool2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d",
    "InstanceNorm2d", "Dropout3d", "AlphaDropout", "EmbeddingBag",
    "Transformer",
    "TransformerEncoder", "TransformerEncoderLayer", "TransformerDecoder", "TransformerDecoderLayer",
    "MultiheadAttention", "ParameterDict", "PReLU", "Threshold",
    "Upsample", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad2d", "PixelShuffle",
    "Softmax2d", "GLU", "Softshrink", "Hardshrink", "RReLU",
    "SoftMarginLoss", "DataParallel",
    "parallel", "Buffer", "Container", "modules", "parameter",
})
