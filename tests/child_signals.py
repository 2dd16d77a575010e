"""Children that a test stops with SIGINT, as Ctrl-C would.

A command started in the background by a shell without job control (`cmd &` in a script,
`nohup`) ignores SIGINT, and its children inherit that: a child's Python then never raises
KeyboardInterrupt. The tests give their children the default action back, so that they run
the same however the suite was started.
"""
from __future__ import annotations

import os
import signal


def default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# Popen's preexec_fn: POSIX only (Windows has no SIGINT to send to a child, nor preexec_fn).
RESTORE_SIGINT = default_sigint if os.name == "posix" else None
