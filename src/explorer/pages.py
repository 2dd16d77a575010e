"""The explorer's HTML pages. Every page is the one frame (`pages/frame.html`: the head and the
site's header) around the page's own `<main>` (`pages/<name>.html`); `PAGES` says what differs
between them: the title, the scripts, the body's class, the navigation link marked current.

A page's static URLs carry the version of the static files (see app.load_static), so the
frame's `{{static}}` is filled in at start-up; the pages themselves are then served whole.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from qwixx_stats.strategies.registry import ADVISING, DEFAULT_JUDGE, KINDS

NAVIGATION = (("/quixo", "Quixo"), ("/qwixx", "Qwixx"))
CURRENT = ' aria-current="page"'


@dataclass(frozen=True)
class Page:
    title: str
    body_class: str = ""
    current: str = ""                     # the navigation link of this page, if any
    script: str = ""                      # the page's module
    imports: tuple[str, ...] = ()         # the modules it imports, preloaded
    parts: Callable[[], dict[str, str]] = dict   # the page's own {{part}}s


def qwixx_parts() -> dict[str, str]:
    """The advice form's models: the registry's advising strategies, each option carrying the
    sentence that says how it ranks (the page shows it above the advice)."""
    options = "".join(
        f'<option value="{html.escape(name)}"'
        f' data-ranking="{html.escape(KINDS[name].ranking)}"'
        f'{" selected" if name == DEFAULT_JUDGE else ""}>{html.escape(name)}</option>'
        for name in ADVISING)
    return {"judges": options}


PAGES = {
    "index.html": Page("Explorer: Quixo and Qwixx"),
    "quixo.html": Page("Quixo explorer", "quixo-page", "/quixo", "quixo.js",
                       ("api.js", "quixo-board.js", "quixo-chart.js")),
    "qwixx.html": Page("Qwixx explorer", "qwixx-page", "/qwixx", "qwixx.js", ("api.js",),
                       qwixx_parts),
}


def render_pages(static_url: str) -> dict[str, bytes]:
    """Every page of PAGES, whole, with its static files under `static_url`."""
    folder = resources.files("explorer") / "pages"
    frame = (folder / "frame.html").read_text(encoding="utf-8")
    return {name: fill(frame, page, (folder / name).read_text(encoding="utf-8"),
                       static_url).encode()
            for name, page in PAGES.items()}


def fill(frame: str, page: Page, main: str, static_url: str) -> str:
    scripts = "".join(f'<link rel="modulepreload" href="{static_url}/{module}">\n'
                      for module in page.imports)
    if page.script:
        scripts += f'<script type="module" src="{static_url}/{page.script}"></script>\n'
    links = " ".join(f'<a href="{href}"{CURRENT if href == page.current else ""}>{label}</a>'
                     for href, label in NAVIGATION)
    parts = {"title": page.title, "scripts": scripts, "links": links, "main": main,
             "body_class": f' class="{page.body_class}"' if page.body_class else "",
             "static": static_url}
    for key, value in page.parts().items():
        main = main.replace("{{" + key + "}}", value)
    parts["main"] = main
    for key, value in parts.items():
        frame = frame.replace("{{" + key + "}}", value)
    return frame
