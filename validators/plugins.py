"""Extension points found through entry points, so that lower layers can use what upper layers
(or third parties) provide without importing them:

- ``arena_studio.validators``: validators (see :mod:`validators.registry`);
- ``arena_studio.commands``: callables ``register(app)`` adding commands to the ``arena`` CLI
  (the editor package adds ``render``, ``print`` and ``pack build`` this way, since they need Qt);
- ``arena_studio.renderers``: callables ``render(arena, fmt, **options) -> bytes`` for
  ``fmt`` in ``svg``/``png``/``pdf`` (the editor's Qt renderer), used by the HTTP service;
- ``arena_studio.pack_builders``: callables building a pack's bytes from arena files
  (:func:`editor.pack_build.build_pack_bytes`, the ``arena pack build`` of the service's jobs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schema.ruleset import entry_points

COMMANDS = "arena_studio.commands"
RENDERERS = "arena_studio.renderers"
PACK_BUILDERS = "arena_studio.pack_builders"


class NoRenderer(LookupError):
    """No renderer is installed (the editor package provides the default one)."""


class NoPackBuilder(LookupError):
    """No pack builder is installed (the editor package provides it: packs hold Qt-drawn previews)."""


def command_registrars() -> list[Callable[[Any], None]]:
    return [ep.load() for ep in sorted(entry_points(group=COMMANDS), key=lambda e: e.name)]


def renderer(name: str | None = None) -> Callable[..., bytes]:
    eps = {ep.name: ep for ep in entry_points(group=RENDERERS)}
    if not eps:
        raise NoRenderer("no arena renderer is installed")
    if name is None:
        name = "qt" if "qt" in eps else sorted(eps)[0]
    if name not in eps:
        raise NoRenderer(f"no renderer named {name!r}; installed: {', '.join(sorted(eps))}")
    fn: Callable[..., bytes] = eps[name].load()
    return fn


def pack_builder() -> Callable[..., bytes]:
    """The installed pack builder (``build_pack_bytes(files, *, name, version, author, license,
    description, paper, enable, load, progress) -> bytes``)."""
    eps = sorted(entry_points(group=PACK_BUILDERS), key=lambda e: e.name)
    if not eps:
        raise NoPackBuilder("no arena pack builder is installed")
    fn: Callable[..., bytes] = eps[0].load()
    return fn
