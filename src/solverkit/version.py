"""The one version of the distribution.

`quixo_solver.__version__`, `qwixx_stats.__version__`, the package metadata (pyproject.toml
reads this attribute at build time, without importing anything) and whatever records which
release wrote a file all take it from here: change it here and nowhere else.
"""
__version__ = "0.2.0"
