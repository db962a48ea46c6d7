"""Build of gradcli's one optional compiled part (everything else is in pyproject.toml).

``gradcli.ops._fmakernel`` runs the float32 matrix products' fmaf chains (ops/gemm_order.py) in C.  It is
optional: without a C compiler the install goes on without it and gradcli computes the same bits with
numpy, only slower."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gradcli.ops._fmakernel",
            ["src/gradcli/ops/_fmakernel.c"],
            extra_compile_args=["-O2", "-ffp-contract=off", "-fno-fast-math"],
            optional=True,
        )
    ]
)
