"""The Qwixx half of the API (in progress)."""
from __future__ import annotations

from typing import Any

from starlette.requests import Request

from .pool import SearchPool
from .settings import Settings


class QwixxService:
    def __init__(self, settings: Settings, pool: SearchPool) -> None:
        self.settings = settings
        self.pool = pool

    async def value(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        raise NotImplementedError

    async def advise(self, pairs: list[tuple[str, str]], request: Request) -> dict[str, Any]:
        raise NotImplementedError
