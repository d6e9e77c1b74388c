"""Findings and validator results: plain data, serialisable to the report's JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
RANK = {"error": 2, "warning": 1, "info": 0}


@dataclass(frozen=True)
class Finding:
    """One thing a validator found: what, how bad, which elements, the numbers behind it and,
    when travel explains it, the path (list of {x, y, heading, speed, turn, length, pushed_by})."""

    code: str
    severity: Severity
    message: str
    elements: tuple[str, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict, hash=False)
    path: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "severity": self.severity, "message": self.message,
                               "elements": list(self.elements), "metrics": self.metrics}
        if self.path:
            out["path"] = list(self.path)
        return out


@dataclass
class Result:
    """What one validator returns: findings plus metrics (merged into the report's metrics)."""

    findings: list[Finding] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)


def at_least(severity: str, threshold: str) -> bool:
    return RANK[severity] >= RANK[threshold]
