"""The text rich's console writes to a file or a pipe, without importing rich (about a sixth of
the interpreter's start-up floor: bench/startup.py), for text simple enough to be sure of it.

A console that is no terminal writes no colours, so what it prints is the words: wrapped at
the console's width as rich wraps them (:func:`wrap`), a rule drawn as rich draws it
(:func:`rule`).  Each function here answers only where its answer is certain - the width is
rich's (:func:`piped_width`: None where rich could decide otherwise), every character is one
rich counts as one cell wide without its Unicode tables, and nothing in the text could be an
emoji code (``:name:``, which rich replaces) - and the callers print with rich everywhere else
(:func:`simple` says which).  ``tests/validators/test_plain_text.py`` compares each with rich's
output on the shipped arenas' reports and on made-up texts.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from typing import IO

#: rich's ranges of characters one cell wide (``rich.cells._SINGLE_CELL_UNICODE_RANGES``): text
#: of these only is measured by its length, with no Unicode table.
SINGLE_CELL_RANGES = ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482), (0x2500, 0x25FC), (0x2800, 0x28FF))
_SINGLE_CELLS = frozenset(chr(c) for start, end in SINGLE_CELL_RANGES for c in range(start, end + 1))
#: What rich might read as an emoji code (its pattern is ``:(\S*?)(?:-(emoji|text))?:``; this
#: one finds every text that pattern matches, and a few more).
_EMOJI_CODE = re.compile(r":\S*:")
#: rich's words (``rich._wrap.re_word``): a word with the whitespace before and after it.
_WORD = re.compile(r"\s*\S+\s*")
#: The narrowest console printed here; rich's rule and wrapping differ in corners below it.
MIN_WIDTH = 20
#: A rule's line, and the mark of a title cut short.
RULE_CHARACTER = "─"
ELLIPSIS = "…"


def simple(text: str) -> bool:
    """Whether rich prints ``text`` (markup already rendered; lines split on newlines) as
    written: every character one rich measures as one cell without its tables (no control
    character, nothing wide or combining), nothing an emoji code.

    >>> simple("gp-floor: FLOOR level 8 · 6 gliders"), simple("wide 漢"), simple("a :smile: b")
    (True, False, False)
    """
    return _SINGLE_CELLS.issuperset(text) and _EMOJI_CODE.search(text) is None


def shown_as_written(text: str) -> bool:
    """Whether a console without wrapping (``soft_wrap``, as ``arena validate``'s stderr) prints
    ``text`` as written: no control character (rich drops them, and expands tabs) and nothing
    an emoji code."""
    return text.isprintable() and _EMOJI_CODE.search(text) is None


def surely_no_terminal(stream: object, environ: Mapping[str, str] | None = None) -> bool:
    """Whether rich's console on ``stream`` is surely no terminal (``Console.is_terminal``:
    neither ``TTY_COMPATIBLE`` nor ``FORCE_COLOR`` set, and the stream is no TTY) - and so
    writes no colours, no links, no progress bars."""
    env = os.environ if environ is None else environ
    if "TTY_COMPATIBLE" in env or "FORCE_COLOR" in env:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return not isatty() if isatty is not None else True
    except ValueError:  # a closed stream
        return True


def piped_width(stream: IO[str] | None, environ: Mapping[str, str] | None = None) -> int | None:
    """The width rich's ``Console(file=stream)`` wraps at when ``stream`` is surely no terminal
    writing UTF-8 on a system other than Windows (whose consoles rich treats apart): ``COLUMNS``
    when set to digits, else the first standard stream's terminal's width, else 80.  None
    where any of that does not hold (or the width is below :data:`MIN_WIDTH`): rich decides."""
    env = os.environ if environ is None else environ
    if stream is None or sys.platform == "win32" or not surely_no_terminal(stream, env):
        return None
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if not encoding.lower().startswith("utf"):
        return None  # rich draws rules in ASCII there
    columns = env.get("COLUMNS")
    if columns is not None:
        width = int(columns) if columns.isascii() and columns.isdigit() else 0
    else:
        width = 0
        for fd in (0, 1, 2):  # rich asks stdin, stdout and stderr in turn
            try:
                width = os.get_terminal_size(fd).columns
            except (AttributeError, ValueError, OSError):
                continue
            break
        width = width or 80
    return width if width >= MIN_WIDTH else None


def wrap(text: str, width: int) -> list[str]:
    """The lines rich prints ``text`` (:func:`simple`, one line: no newline) as on a console
    ``width`` cells wide: words (with the whitespace after them) kept whole where they fit,
    longer ones folded, whitespace past the width dropped at a line's end (``rich.text.Text.wrap``
    with rich's defaults: justify "default", overflow "fold").

    >>> wrap("the quick brown fox", 10)
    ['the quick ', 'brown fox']
    >>> wrap("abcdefghijklmnopqrstuvwxyz end", 10)
    ['abcdefghij', 'klmnopqrst', 'uvwxyz end']
    """
    breaks: list[int] = []
    offset = 0
    match = _WORD.match(text, 0)
    while match is not None:  # rich._wrap.divide_line, each character one cell
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # fold the word across lines
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for i, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if i == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
        match = _WORD.match(text, match.end())
    bounds = [0, *breaks, len(text)] if breaks else [0, len(text)]
    # rich drops the whitespace past the width at a line's end, then crops the line to the
    # width (Text.rstrip_end, Text.truncate): the words of a line fit, so only whitespace is past
    # it, and the cut is the crop
    return [text[a:b][:width] for a, b in zip(bounds, bounds[1:])]


def printed(text: str, width: int, end: str = "\n") -> str:
    """What ``Console.print(text, end=end)`` writes for :func:`simple` text (markup rendered)
    on a console ``width`` cells wide that is no terminal: each of its lines wrapped.

    >>> printed("\\nERRORS (2)", 80)
    '\\nERRORS (2)\\n'
    """
    return "\n".join(line for part in text.split("\n") for line in wrap(part, width)) + end


def rule(title: str, width: int) -> str:
    """What ``Console.rule(title)`` writes for a :func:`simple` ``title`` (markup rendered) on
    a console ``width`` (at least :data:`MIN_WIDTH`) cells wide that is no terminal: the title
    centred in a line of :data:`RULE_CHARACTER`, cut short with :data:`ELLIPSIS` where it does
    not fit (``rich.rule.Rule``).

    >>> rule("Arena", 21)
    '─────── Arena ───────\\n'
    """
    if len(title) > width - 4:
        title = title[:width - 5] + ELLIPSIS
    side = (width - len(title)) // 2
    left = RULE_CHARACTER * (side - 1)
    right = RULE_CHARACTER * min(side + 1, width - len(left) - len(title))
    line = f"{left} {title} {right}"
    return (line + " " * (width - len(line)) if len(line) < width else line[:width]) + "\n"
