"""One version: both packages, the installed distribution's metadata and both command lines
say the same, and it is a release number (MAJOR.MINOR.PATCH)."""
import importlib.metadata
import re


import quixo_solver
import qwixx_stats
from quixo_solver.frontends import cli as quixo_cli
from qwixx_stats import cli as qwixx_cli
from solverkit.version import __version__


def test_one_version_everywhere():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert quixo_solver.__version__ == __version__
    assert qwixx_stats.__version__ == __version__
    assert importlib.metadata.version("quixo-solver") == __version__


def test_quixo_version_option(capsys):
    assert quixo_cli.main(["--version"]) == 0       # both CLIs' frame returns the status
    assert capsys.readouterr().out == f"quixo {__version__}\n"


def test_qwixx_version_option(capsys):
    assert qwixx_cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"qwixx {__version__}\n"
