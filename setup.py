"""Build the solver's compiled core; the package installs without it (pure-Python core).

Everything else about the package is in pyproject.toml.
"""

import sys

from setuptools import Extension, setup

args = [] if sys.platform == "win32" else ["-O3", "-std=c99", "-Wall"]

setup(
    ext_modules=[
        Extension(
            "skat.players.solver._csolver",
            ["src/skat/players/solver/_csolver.c"],
            extra_compile_args=args,
            optional=True,
        )
    ]
)
