"""The finding every game's rules package returns from its checks: plain data (code, severity,
message quoting the book, element ids, metrics) that the ruleset layer adapts to the validator
registry (:mod:`validators.findings`).  One type for every game, so the adapter is one too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Issue:
    """A check's finding; ``metrics`` are carried along but take no part in equality."""

    code: str
    severity: Severity
    message: str
    elements: tuple[str, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


__all__ = ["Issue", "Severity"]
