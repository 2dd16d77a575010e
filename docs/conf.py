"""Sphinx configuration of the quixo-solver documentation.

Pages are MyST Markdown (myst-parser), as the README and the conventions already are; the API
reference is autodoc over the installed packages (so the compiled kernels need to be built:
`pip install -e ".[docs]"` first); the theme is furo. Build with warnings as errors:

    sphinx-build -W --keep-going -b html docs docs/_build/html

The examples in the pages run as doctests in the test suite (tests/test_docs.py).
"""
from solverkit.version import __version__

project = "quixo-solver"
author = "the quixo-solver developers"
copyright = "2026, the quixo-solver developers"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# solved/figures.md is generated (benchmarks/quixo/tablebase/solution_figures.py) and included
# by solved.md.
exclude_patterns = ["_build", "README.md", "solved/*.md"]

# MyST: ``:::`` fences for directives, heading anchors for links such as
# conventions.md#values, and {attribute} lists are not needed.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Docstrings are reStructuredText as the modules write them: `name` (single back-quotes) is
# code there, as it is in Markdown.
default_role = "code"

autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"quixo-solver {release}"
html_static_path: list[str] = []


def separate_lists(app, what, name, obj, options, lines):
    """The docstrings are written as plain text, where a list may follow its introducing line
    directly ("The contract:" then "- ...") and a paragraph may follow the list directly;
    reStructuredText needs a blank line before and after a list."""
    result: list[str] = []
    list_indent = None          # the indent of the list being read, None outside a list
    for line in lines:
        indent = len(line) - len(line.lstrip())
        is_item = line.lstrip().startswith("- ")
        if not line.strip():
            list_indent = None
        elif is_item and list_indent is None:
            if result and result[-1].strip():
                result.append("")
            list_indent = indent
        elif list_indent is not None and not is_item and indent <= list_indent:
            result.append("")   # a paragraph right after the list
            list_indent = None
        result.append(line)
    lines[:] = result


def setup(app):
    app.connect("autodoc-process-docstring", separate_lists)
