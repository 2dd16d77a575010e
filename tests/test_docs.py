"""The documentation's examples (docs/**/*.md), run page by page, in the order they are written.

Two kinds of fenced code block run:
- a ``python`` (or ``pycon``) block with ``>>>`` lines is a doctest: each line's output must be
  what the page shows (ELLIPSIS and NORMALIZE_WHITESPACE, as the README's doctests);
- a ``console`` block is a terminal session: each ``$ command`` line runs (``quixo`` and
  ``qwixx`` as this Python's ``-m quixo_solver`` / ``-m qwixx_stats``), and what it prints,
  stdout then stderr, must match the lines below it up to the next ``$`` line; a last line
  ``[exit status N]`` expects that status, otherwise it must be 0. A command that ends with
  ``<<EOF`` reads the lines after it, up to a line ``EOF``, on its standard input (a shell's
  here-document); otherwise its input is empty.
Blocks in any other language (``shell``, ``text``, ``json``, ...) are shown, not run: the
commands that need a cluster, a server or minutes of work are written that way.

A page's blocks share one namespace and one empty folder, which is the default tablebase folder
("tables") and the working directory of its commands, so a page can build tables with the
command line and probe them in Python. The Qwixx tables are solved once per session.
"""
from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PROGRAMS = {"quixo": "quixo_solver", "qwixx": "qwixx_stats"}
FENCE = re.compile(r"^(?P<fence>```+|~~~+)\s*(?P<info>[^\n]*)$")
EXIT_STATUS = re.compile(r"^\[exit status (\d+)\]$")
COMMAND_SECONDS = 120


@dataclass
class Block:
    language: str
    text: str
    line: int          # of the block's first line in the page, counting from 1


def pages() -> list[Path]:
    return sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.parts)


def fenced_blocks(text: str) -> list[Block]:
    """The page's fenced code blocks (MyST directives such as ```{toctree} are not code)."""
    blocks = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, language = opening["fence"], opening["info"].strip().split(" ")[0]
        end = index + 1
        while end < len(lines) and not (lines[end].startswith(fence)
                                        and lines[end].strip() == fence[0] * len(lines[end].strip())):
            end += 1
        blocks.append(Block(language, "\n".join(lines[index + 1:end]) + "\n", index + 2))
        index = end + 1
    return blocks


def runnable(block: Block) -> bool:
    if block.language in ("python", "pycon"):
        return ">>>" in block.text
    return block.language == "console"


@dataclass
class Command:
    line: int
    command: str
    input: str
    output: str


HERE_DOCUMENT = re.compile(r"\s*<<\s*EOF$")


def session_commands(block: Block) -> list[Command]:
    """Each `$ ` line of a console block with its input (a here-document) and output."""
    commands: list[Command] = []
    reading_input = False
    for offset, line in enumerate(block.text.splitlines()):
        if reading_input:
            if line == "EOF":
                reading_input = False
            else:
                commands[-1].input += line + "\n"
        elif line.startswith("$ "):
            command = HERE_DOCUMENT.sub("", line[2:])
            reading_input = command != line[2:]
            commands.append(Command(block.line + offset, command, "", ""))
        elif commands:
            commands[-1].output += line + "\n"
        elif line.strip():
            raise AssertionError(f"line {block.line + offset}: output before any $ command")
    assert not reading_input, f"line {block.line}: a here-document without its EOF line"
    return commands


def run_command(command: Command, folder: Path) -> tuple[str, int]:
    words = shlex.split(command.command)
    assert words[0] in PROGRAMS, f"the docs run only quixo and qwixx, not {words[0]}"
    completed = subprocess.run([sys.executable, "-m", PROGRAMS[words[0]], *words[1:]],
                               cwd=folder, input=command.input, capture_output=True, text=True,
                               timeout=COMMAND_SECONDS, env={**os.environ, "COLUMNS": "100"})
    return completed.stdout + completed.stderr, completed.returncode


def check_console(block: Block, page: Path, folder: Path) -> list[str]:
    failures = []
    checker = doctest.OutputChecker()
    for command in session_commands(block):
        want_status = 0
        lines = command.output.rstrip("\n").splitlines()
        if lines and EXIT_STATUS.match(lines[-1]):
            want_status = int(EXIT_STATUS.match(lines[-1])[1])
            lines = lines[:-1]
        expected = "\n".join(lines) + "\n"
        output, status = run_command(command, folder)
        if status != want_status or not checker.check_output(expected, output, FLAGS):
            failures.append(f"{page.name}:{command.line}: $ {command.command}\n"
                            f"expected (exit status {want_status}):\n{expected}"
                            f"got (exit status {status}):\n{output}")
    return failures


def page_id(path: Path) -> str:
    return str(path.relative_to(DOCS))


PAGES = pages()
PAGES_WITH_EXAMPLES = [page for page in PAGES
                       if any(runnable(block) for block in fenced_blocks(page.read_text("utf-8")))]


def test_the_pages_are_found():
    names = {page_id(page) for page in PAGES_WITH_EXAMPLES}
    assert {"tutorials/solving.md", "tutorials/tablebases.md", "tutorials/qwixx.md",
            "how-it-works/tablebase-index.md"} <= names


def test_a_changed_output_fails(tmp_path):
    """The runner is not blind: a doctest and a command whose shown output is wrong fail."""
    page = tmp_path / "wrong.md"
    page.write_text("```python\n>>> 1 + 1\n3\n\n```\n\n```console\n$ quixo --version\n"
                    "quixo 0.0.0\n```\n", encoding="utf-8")
    doctests, commands = run_page(page, tmp_path)
    assert doctests.failed == 1 and doctests.attempted == 1
    assert len(commands) == 1 and "quixo --version" in commands[0]


@dataclass
class DoctestSummary:
    attempted: int
    failed: int


def run_page(page: Path, folder: Path) -> tuple[DoctestSummary, list[str]]:
    """Runs every runnable block of the page in order; the doctests' failures are printed
    by the doctest runner, the commands' are returned."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS, verbose=False)
    globs: dict[str, object] = {"__name__": page.stem}
    command_failures: list[str] = []
    for block in fenced_blocks(page.read_text("utf-8")):
        if not runnable(block):
            continue
        if block.language == "console":
            command_failures += check_console(block, page, folder)
            continue
        test = parser.get_doctest(block.text, globs, f"{page.name}:{block.line}", str(page),
                                  block.line - 1)
        runner.run(test, clear_globs=False)
        globs = test.globs   # a DocTest runs in a copy: the next block goes on from this one
    summary = runner.summarize(verbose=False)
    return DoctestSummary(summary.attempted, summary.failed), command_failures


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=page_id)
def test_page_examples(page, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QUIXO_TABLEBASE_DIR", str(tmp_path / "tables"))
    if any(runnable(block) and "qwixx" in block.text
           for block in fenced_blocks(page.read_text("utf-8"))):   # the session's tables
        monkeypatch.setenv("QWIXX_TABLE_DIR", str(request.getfixturevalue("qwixx_table_dir")))
    else:
        monkeypatch.setenv("QWIXX_TABLE_DIR", str(tmp_path / "qwixx"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    doctests, command_failures = run_page(page, tmp_path)
    assert doctests.failed == 0, f"{doctests.failed} of {page.name}'s examples failed (above)"
    assert not command_failures, "\n".join(command_failures)
