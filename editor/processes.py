"""The multiprocessing context of the editor's worker processes (Qt-free)."""

from __future__ import annotations

import multiprocessing
from typing import Any

_MP_CONTEXT: Any = None


def mp_context() -> Any:
    """forkserver (a clean, pre-imported process to fork workers from) where available; the
    server pre-imports the validation core and the modules each installed game's editor names
    (:meth:`editor.game.EditorGame.worker_modules`)."""
    global _MP_CONTEXT
    if _MP_CONTEXT is None:
        methods = multiprocessing.get_all_start_methods()
        _MP_CONTEXT = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            from editor.game import editors

            games = [name for game in editors().values() for name in game.worker_modules()]
            _MP_CONTEXT.set_forkserver_preload(["validators.run", *games, "schema", "editor.analysis"])
    return _MP_CONTEXT
