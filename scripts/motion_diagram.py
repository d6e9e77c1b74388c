"""Draw the motion model as plain SVG: python scripts/motion_diagram.py [OUT.svg]

Every maneuver of one length from the same pose (footprints at the end, centre paths), with
icon costs, plus an acceleration-field push.  Uses only the engine's own motion functions.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gravstrike.motion import Footprint, Maneuver, Pose, centre_path, move, push  # noqa: E402

SCALE = 90.0  # pixels per length
COLOURS = {0: "#2b6cb0", 1: "#2f855a", 2: "#b7791f", 3: "#c53030", 4: "#6b46c1"}


def _pt(x: float, y: float, ox: float, oy: float) -> str:
    return f"{ox + x * SCALE:.1f},{oy - y * SCALE:.1f}"


def _poly(pts: list[tuple[float, float]], ox: float, oy: float, style: str) -> str:
    return f'<polygon points="{" ".join(_pt(x, y, ox, oy) for x, y in pts)}" {style}/>'


def _line(pts: list[tuple[float, float]], ox: float, oy: float, style: str) -> str:
    return f'<polyline points="{" ".join(_pt(x, y, ox, oy) for x, y in pts)}" fill="none" {style}/>'


def panel(title: str, maneuvers: list[Maneuver], ox: float, oy: float) -> list[str]:
    out = [f'<text x="{ox - 60:.0f}" y="{oy - 175:.0f}" font-size="15" font-weight="bold">{title}</text>']
    start = Pose(0.0, 0.0, 90.0)
    out.append(_poly(list(Footprint.of(start).corners), ox, oy, 'fill="#e2e8f0" stroke="#1a202c" stroke-width="1.5"'))
    for m in maneuvers:
        colour = COLOURS[m.cost]
        end = move(start, m)
        out.append(_line(centre_path(start, m), ox, oy, f'stroke="{colour}" stroke-width="2"'))
        out.append(_poly(list(Footprint.of(end).corners), ox, oy, f'fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-width="1.2"'))
        lx, ly = end.x * 1.25, end.y * 1.12 + 0.05
        out.append(f'<text x="{ox + lx * SCALE:.0f}" y="{oy - ly * SCALE:.0f}" font-size="11" fill="{colour}" text-anchor="middle">{m.label} ({m.cost})</text>')
    return out


def main() -> None:
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img" / "motion-model.svg"
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="470" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    parts += panel("Straight and turns (icons)", [Maneuver(t) for t in (0, 30, -30, 60, -60, 90, -90)], 200, 330)
    parts += panel("With a sideslip (+1 icon)", [Maneuver(0, 1), Maneuver(0, -1), Maneuver(30, 1), Maneuver(-60, -1), Maneuver(90, 1)], 560, 330)
    # acceleration field push
    ox, oy = 900, 330
    parts.append(f'<text x="{ox - 90}" y="{oy - 175}" font-size="15" font-weight="bold">Acceleration field push</text>')
    start = Pose(0.0, 0.0, 90.0)
    after = move(start, Maneuver(0))
    pushed = push(after, 0.0)
    parts.append(f'<circle cx="{ox:.0f}" cy="{oy - 1.0 * SCALE:.0f}" r="{0.45 * SCALE:.0f}" fill="#fefcbf" stroke="#b7791f"/>')
    parts.append(f'<text x="{ox:.0f}" y="{oy - 0.35 * SCALE:.0f}" font-size="11" text-anchor="middle">field, direction 0°</text>')
    for pose, style in ((start, 'fill="#e2e8f0" stroke="#1a202c"'), (after, 'fill="none" stroke="#2b6cb0" stroke-dasharray="4 3"'), (pushed, 'fill="#c6f6d5" stroke="#2f855a"')):
        parts.append(_poly(list(Footprint.of(pose).corners), ox, oy, style))
    parts.append(_line([(0.0, 0.0), (after.x, after.y), (pushed.x, pushed.y)], ox, oy, 'stroke="#2f855a" stroke-width="2"'))
    parts.append(f'<text x="{ox + 1.0 * SCALE:.0f}" y="{oy - 1.7 * SCALE:.0f}" font-size="11" text-anchor="middle">pushed 1 length, heading kept</text>')
    parts.append('<text x="20" y="455" font-size="12">Grey: start pose (heading up). Lines: path of the centre during the length. '
                 'Boxes: footprint when the length ends - the only moment rams, fields, checkpoints and exclusion fields are checked.</text>')
    parts.append("</svg>")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    print(f"wrote {out_path}")


if __name__ == "__main__":
    main()
