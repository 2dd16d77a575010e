"""The explorer: `quixo serve`, every move's exact value on a page in the browser, for Quixo
and Qwixx, and the JSON API of SPEC "Web".

    quixo serve [--host 127.0.0.1] [--port 8000] [--dir TABLES] [--open]

It needs the `web` extra (`pip install "quixo-solver[web]"`: Starlette and uvicorn). The game
packages never import it at module level; it imports them.

    server.py     serve(): uvicorn, loopback by default, the small tables built first
    processes.py  --processes N: N server processes forked on one socket, supervised
    shared.py     memory and a lock the processes share (rate limits, search slots, counts)
    app.py        the Starlette application: pages, static files, API routes, errors
    quixo_api.py  the Quixo answers (the command line's, from quixo_solver.frontends.answers)
    qwixx_api.py  the Qwixx answers (the command line's, from qwixx_stats.answers)
    pool.py       the search pool: one search per core, a bounded queue, stop on disconnect
    events.py     Server-Sent Events of a running search
    arguments.py  a query string read by the command line's own parser
    settings.py   the server's options
    static/       the pages (plain HTML, CSS and JavaScript modules: no build step)
"""
from .settings import Settings

__all__ = ["Settings"]
