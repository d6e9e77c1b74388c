"""The validator registry: built-ins and third-party validators alike register under the
entry-point group ``arena_studio.validators`` and are loaded lazily, on first use.

A validator is any object with ``id`` (its finding code), ``title``, ``severity`` (default),
``games`` (the ids of the rulesets it applies to, e.g. ``("car-wars-6e",)``) and
``evaluate(arena, context) -> Result``; ``needs_travel`` tells whether it uses travel matrices.
A validator never runs on a game it does not name; one without ``games`` (written before the
ruleset layer) applies to the default game only (:func:`validators.game.default_system`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from schema.ruleset import entry_points
from validators.findings import Result, Severity

GROUP = "arena_studio.validators"


class Validator(Protocol):
    id: str
    title: str
    severity: Severity
    needs_travel: bool
    games: tuple[str, ...]

    def evaluate(self, arena: Any, context: Any) -> Result: ...


class UnknownValidator(KeyError):
    """A validator code that no installed validator provides."""


class NotForGame(UnknownValidator):
    """A validator code asked for on a game it does not apply to."""

    def __init__(self, code: str, game: str, games: tuple[str, ...]) -> None:
        super().__init__(code)
        self.game, self.games = game, games

    def __str__(self) -> str:
        return f"validator {self.args[0]!r} does not apply to {self.game} (it checks {', '.join(self.games)})"


def games_of(validator: Validator) -> tuple[str, ...]:
    """The rulesets a validator applies to (one that names none: the default game's)."""
    games = getattr(validator, "games", None)
    return tuple(games) if games else _default_games()


def _default_games() -> tuple[str, ...]:
    """The game of validators that declare none (those written before the ruleset layer)."""
    from validators.game import default_system

    try:
        return (default_system(),)
    except LookupError:
        return ()


@dataclass
class Registry:
    """Maps codes to entry points; ``get`` loads a validator the first time it is asked for."""

    _entry: dict[str, Any]
    _loaded: dict[str, Validator]

    @classmethod
    def discover(cls) -> Registry:
        return cls({ep.name: ep for ep in entry_points(group=GROUP)}, {})

    def codes(self) -> list[str]:
        return sorted(self._entry) + sorted(k for k in self._loaded if k not in self._entry)

    def add(self, validator: Validator) -> None:
        """Register an instance directly (tests, embedding applications)."""
        self._loaded[validator.id] = validator

    def get(self, code: str) -> Validator:
        if code not in self._loaded:
            if code not in self._entry:
                raise UnknownValidator(code)
            obj = self._entry[code].load()
            validator: Validator = obj() if isinstance(obj, type) else obj
            if validator.id != code:
                raise ValueError(f"entry point {code!r} loads a validator with id {validator.id!r}")
            self._loaded[code] = validator
        return self._loaded[code]

    def select(self, enable: Iterable[str] = (), disable: Iterable[str] = (), *, game: str | None = None) -> list[Validator]:
        """Validators to run: all (or only ``enable`` if given) minus ``disable``; with ``game``,
        only those that apply to that ruleset (enabling one that does not is
        :class:`NotForGame`)."""
        enable, disable = list(enable), set(disable)
        for code in [*enable, *disable]:
            if code not in self._entry and code not in self._loaded:
                raise UnknownValidator(code)
        if game is not None:
            for code in enable:
                if game not in games_of(self.get(code)):
                    raise NotForGame(code, game, games_of(self.get(code)))
        codes = enable or [c for c in self.codes() if game is None or not self._foreign(c, game)]
        return [v for v in (self.get(c) for c in codes if c not in disable) if game is None or game in games_of(v)]

    def for_game(self, game: str) -> list[str]:
        """The codes of the validators that apply to ``game``."""
        return [c for c in self.codes() if not self._foreign(c, game) and game in games_of(self.get(c))]

    def _foreign(self, code: str, game: str) -> bool:
        """Whether a validator not loaded yet surely checks another game: its entry point lies
        in the module, or below the package, that another game's analysis entry point names
        (:func:`validators.game.owner_modules`: ``validators.games.carwars`` holds Car Wars'
        validators).  Such a validator is not imported for ``game`` (a cold start loads only
        what runs)."""
        if code in self._loaded or code not in self._entry:
            return False
        from validators.game import owner_modules

        module = str(getattr(self._entry[code], "value", "")).partition(":")[0].strip()
        owners = owner_modules()
        parts = module.split(".")
        for n in range(len(parts), 0, -1):
            owner = owners.get(".".join(parts[:n]))
            if owner is not None:
                return owner != game
        return False


_default: Registry | None = None


def default_registry() -> Registry:
    global _default
    if _default is None:
        _default = Registry.discover()
    return _default
