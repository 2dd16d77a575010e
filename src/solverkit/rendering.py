"""The render modes of both games' game-AI environments (PettingZoo and Gymnasium alike):
`ansi` returns the game's text drawing, `rgb_array` a picture (uint8, (H, W, 3)), `human`
prints the text drawing (no window is opened) and returns None.
"""
from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
import numpy.typing as npt

from .messages import clip

RENDER_MODES = ("human", "ansi", "rgb_array")


def check_render_mode(render_mode: object, error: type[ValueError]) -> str | None:
    """`render_mode` if it is one of RENDER_MODES or None, else `error`."""
    if render_mode is None:
        return None
    if isinstance(render_mode, str) and render_mode in RENDER_MODES:
        return render_mode
    raise error(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not "
                f"{clip(render_mode)}")


def render_frame(render_mode: str | None, text: Callable[[], str],
                 picture: Callable[[], npt.NDArray[np.uint8]]
                 ) -> str | npt.NDArray[np.uint8] | None:
    """What `render()` returns in `render_mode` (see the module's docstring); with no render
    mode, None and Gymnasium's warning, as PettingZoo's classic games give it."""
    if render_mode == "rgb_array":
        return picture()
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render "
                              "mode.")
        return None
    drawing = text()
    if render_mode == "ansi":
        return drawing
    print(drawing)
    return None
