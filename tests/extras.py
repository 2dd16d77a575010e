"""Tests that need an optional extra (web, rl): skipped where its modules are missing, except
in CI (CI=true), where a missing module fails them, since a test skipped in CI counts for
nothing (the README's test command installs every extra)."""
import importlib.util
import os

import pytest


def require(*modules: str, extra: str = "web") -> None:
    """Skip (or in CI fail) the calling test module unless every one of `modules` imports."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        message = f"needs {', '.join(missing)} (pip install '.[test,{extra}]')"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)
