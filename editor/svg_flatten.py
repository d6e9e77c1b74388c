"""Rewrite Qt's SVG (``QSvgGenerator``) into plain SVG 1.1 in output units, so every renderer
draws it the same way: librsvg, CairoSVG, resvg, Inkscape, browsers and QtSvg.

``QSvgGenerator`` writes each painter state as a ``<g transform="matrix(...)">`` in arena
lengths (a ~39x scale with a y flip) and keeps outlines thin with
``vector-effect="non-scaling-stroke"``, which librsvg, CairoSVG and resvg ignore (outlines
came out ~58 px thick there); its hatch patterns are masks of 1-unit squares in the scaled
space (blocks in Inkscape, a blur in QtSvg).  :func:`flatten_svg` therefore

- maps every coordinate through its transforms into the output's own units (paths, polylines,
  polygons, rectangles, ellipses, lines), so no group carries a transform;
- writes the real stroke width: cosmetic (non-scaling) strokes keep their width in output
  units, scaled strokes (and their dash patterns) are multiplied by the transform's scale;
- turns Qt's masked brush patterns into plain ``<pattern>`` tiles of coloured squares in
  output units (no masks);
- replaces characters XML 1.0 forbids (C0 controls in names, U+FFFE/U+FFFF) by visible
  stand-ins (U+2400 control pictures, U+FFFD), so the file is always well-formed XML.

Pure Python (``xml.etree``): the input is our own renderer's output, never a user's file.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

Matrix = tuple[float, float, float, float, float, float]  # SVG's (a, b, c, d, e, f)
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Characters XML 1.0 does not allow anywhere in a document.
ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by a visible stand-in: C0
    controls by their control picture (U+0001 -> U+2401), anything else by U+FFFD."""
    return ILLEGAL_XML.sub(lambda m: chr(0x2400 + ord(m.group())) if ord(m.group()) < 0x20 else "\ufffd", text)


def _q(tag: str) -> str:
    return f"{{{SVG_NS}}}{tag}"


def _num(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` after ``n``: the matrix mapping n's space through n, then m."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def scale_of(m: Matrix) -> float:
    """The length scale of ``m`` (square root of the area scale)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_transform(text: str | None) -> Matrix:
    m = IDENTITY
    for name, args in _TRANSFORM.findall(text or ""):
        v = [float(x) for x in _NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            t: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            t = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            t = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            t = multiply(multiply((1.0, 0.0, 0.0, 1.0, cx, cy), (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0.0, 0.0)),
                         (1.0, 0.0, 0.0, 1.0, -cx, -cy))
        elif name in ("skewX", "skewY") and v:
            k = math.tan(math.radians(v[0]))
            t = (1.0, 0.0, k, 1.0, 0.0, 0.0) if name == "skewX" else (1.0, k, 0.0, 1.0, 0.0, 0.0)
        else:
            continue
        m = multiply(m, t)
    return m


def _matrix_text(m: Matrix) -> str:
    return "matrix(" + ",".join(_num(v) if i >= 4 else f"{v:.6g}" for i, v in enumerate(m)) + ")"


# ------------------------------------------------------------------ path data

_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0, "A": 7}


def transform_path(d: str, m: Matrix) -> str | None:
    """Path data mapped through ``m`` (absolute commands out); None if it holds arcs, which
    an affine map does not keep as SVG arcs here (the caller keeps a transform instead)."""
    tokens = _PATH_TOKEN.findall(d)
    out: list[str] = []
    x = y = sx = sy = 0.0
    i, cmd = 0, ""
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                out.append("Z")
                x, y = sx, sy
                continue
        elif not cmd:
            return None
        up = cmd.upper()
        if up == "A":
            return None
        n = _ARGS[up]
        if i + n > len(tokens) or any(t.isalpha() for t in tokens[i:i + n]):
            return None
        v = [float(t) for t in tokens[i:i + n]]
        i += n
        rel = cmd.islower()
        if up == "H":
            pts = [(v[0] + (x if rel else 0.0), y)]
        elif up == "V":
            pts = [(x, v[0] + (y if rel else 0.0))]
        else:
            pts = [(v[k] + (x if rel else 0.0), v[k + 1] + (y if rel else 0.0)) for k in range(0, n, 2)]
        letter = "L" if up in "HV" else up
        mapped = [apply(m, px, py) for px, py in pts]
        out.append(letter + " ".join(f"{_num(px)},{_num(py)}" for px, py in mapped))
        x, y = pts[-1]
        if up == "M":
            sx, sy = x, y
            cmd = "l" if rel else "L"  # further pairs after a moveto are linetos
    return " ".join(out)


def _points(text: str, m: Matrix) -> str:
    v = [float(t) for t in _NUMBER.findall(text)]
    return " ".join(f"{_num(px)},{_num(py)}" for px, py in (apply(m, v[k], v[k + 1]) for k in range(0, len(v) - 1, 2)))


def _ellipse_path(cx: float, cy: float, rx: float, ry: float, m: Matrix) -> str:
    k = 0.5522847498  # cubic Bezier quarter-circle constant: affine maps keep Beziers exact
    segs = [((cx + rx, cy), (cx + rx, cy + k * ry), (cx + k * rx, cy + ry), (cx, cy + ry)),
            ((cx, cy + ry), (cx - k * rx, cy + ry), (cx - rx, cy + k * ry), (cx - rx, cy)),
            ((cx - rx, cy), (cx - rx, cy - k * ry), (cx - k * rx, cy - ry), (cx, cy - ry)),
            ((cx, cy - ry), (cx + k * rx, cy - ry), (cx + rx, cy - k * ry), (cx + rx, cy))]
    d = f"M{cx + rx},{cy}"
    for _, c1, c2, end in segs:
        d += f" C{c1[0]},{c1[1]} {c2[0]},{c2[1]} {end[0]},{end[1]}"
    return (transform_path(d + " Z", m) or "")


def _f(el: ET.Element, name: str, default: float = 0.0) -> float:
    try:
        return float(_NUMBER.findall(el.get(name, ""))[0])
    except (IndexError, ValueError):
        return default


# ------------------------------------------------------------------ elements


def _leaf(el: ET.Element, m: Matrix) -> None:
    """Map one drawing element's geometry through ``m`` in place (tag may change)."""
    tag = el.tag.rpartition("}")[2]
    axis_aligned = abs(m[1]) < 1e-12 and abs(m[2]) < 1e-12
    if m == IDENTITY:
        return
    if tag == "path":
        d = transform_path(el.get("d", ""), m)
        if d is None:
            el.set("transform", _matrix_text(m))
        else:
            el.set("d", d)
    elif tag in ("polyline", "polygon"):
        el.set("points", _points(el.get("points", ""), m))
    elif tag == "line":
        x1, y1 = apply(m, _f(el, "x1"), _f(el, "y1"))
        x2, y2 = apply(m, _f(el, "x2"), _f(el, "y2"))
        for k, v in (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)):
            el.set(k, _num(v))
    elif tag == "rect":
        x, y, w, h = _f(el, "x"), _f(el, "y"), _f(el, "width"), _f(el, "height")
        if el.get("rx") or el.get("ry"):
            el.set("transform", _matrix_text(m))
        elif axis_aligned:
            (x0, y0), (x1, y1) = apply(m, x, y), apply(m, x + w, y + h)
            for k, v in (("x", min(x0, x1)), ("y", min(y0, y1)), ("width", abs(x1 - x0)), ("height", abs(y1 - y0))):
                el.set(k, _num(v))
        else:
            for k in ("x", "y", "width", "height"):
                el.attrib.pop(k, None)
            el.tag = _q("polygon")
            el.set("points", _points(f"{x},{y} {x + w},{y} {x + w},{y + h} {x},{y + h}", m))
    elif tag in ("ellipse", "circle"):
        cx, cy = _f(el, "cx"), _f(el, "cy")
        rx, ry = (_f(el, "r"), _f(el, "r")) if tag == "circle" else (_f(el, "rx"), _f(el, "ry"))
        if axis_aligned:
            x, y = apply(m, cx, cy)
            el.tag = _q("ellipse")
            el.attrib.pop("r", None)
            for k, v in (("cx", x), ("cy", y), ("rx", abs(rx * m[0])), ("ry", abs(ry * m[3]))):
                el.set(k, _num(v))
        else:
            for k in ("cx", "cy", "r", "rx", "ry"):
                el.attrib.pop(k, None)
            el.tag = _q("path")
            el.set("d", _ellipse_path(cx, cy, rx, ry, m))
    else:  # text, image, use and anything else: keep the (composed) transform on the element
        el.set("transform", _matrix_text(m))


_DRAWN = {"path", "polyline", "polygon", "line", "rect", "ellipse", "circle"}


def _walk(el: ET.Element, m: Matrix, inherited: dict[str, str | None]) -> None:
    for child in list(el):
        tag = child.tag.rpartition("}")[2]
        if tag in ("defs", "title", "desc", "metadata", "style"):
            continue
        cm = multiply(m, parse_transform(child.attrib.pop("transform", None)))
        styles = {k: child.get(k, inherited.get(k)) for k in ("stroke", "stroke-width", "stroke-dasharray",
                                                               "stroke-dashoffset")}
        if tag == "g":
            _walk(child, cm, styles)
            continue
        if tag in _DRAWN:
            non_scaling = child.attrib.pop("vector-effect", "none") == "non-scaling-stroke"
            s = scale_of(cm)
            stroked = styles["stroke"] not in (None, "none")
            if stroked and not non_scaling and abs(s - 1.0) > 1e-9:
                width = styles["stroke-width"]
                child.set("stroke-width", _num(float(width) * s) if width else _num(s))
                dash = styles["stroke-dasharray"]
                if dash and dash != "none":
                    child.set("stroke-dasharray", ",".join(_num(float(v) * s) for v in _NUMBER.findall(dash)))
                    child.set("stroke-dashoffset", _num(float(styles["stroke-dashoffset"] or 0) * s))
        _leaf(child, cm)


def _plain_patterns(root: ET.Element) -> None:
    """Qt's brush patterns are a ``<pattern>`` holding one rectangle masked by a ``<mask>`` of
    unit squares; write the squares straight into the pattern, in the brush colour, and drop
    the masks (the tile is already in output units once transforms are gone)."""
    masks = {m.get("id"): m for m in root.iter(_q("mask"))}
    for pattern in root.iter(_q("pattern")):
        for rect in list(pattern):
            ref = re.fullmatch(r"url\(#([^)]+)\)", rect.get("mask", ""))
            if not ref or ref.group(1) not in masks:
                continue
            pattern.remove(rect)
            for square in masks[ref.group(1)]:
                copy = ET.SubElement(pattern, square.tag, dict(square.attrib))
                copy.set("fill", rect.get("fill", "#000000"))
                copy.set("stroke", "none")
    for parent in root.iter():
        for child in list(parent):
            if child.tag == _q("mask"):
                parent.remove(child)


def flatten_svg(data: bytes) -> bytes:
    """Qt's SVG bytes rewritten in output units (see the module docstring)."""
    text = xml_safe(data.decode("utf-8", errors="replace"))
    root = ET.fromstring(text)
    _plain_patterns(root)
    _walk(root, IDENTITY, {"stroke": None, "stroke-width": "1", "stroke-dasharray": None, "stroke-dashoffset": None})
    root.set("version", "1.1")
    root.attrib.pop("baseProfile", None)
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n").encode("utf-8")


__all__ = ["flatten_svg", "parse_transform", "transform_path", "xml_safe"]
