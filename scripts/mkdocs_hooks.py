"""MkDocs hook (mkdocs.yml ``hooks:``): read the manual's Markdown as GitHub does.

GitHub (CommonMark) lets a list start right under a paragraph line; Python-Markdown, which MkDocs
uses, needs a blank line first and otherwise runs the items into the paragraph's text. So that a
page reads the same on GitHub and in the site, a blank line is put before a list item that
follows a paragraph line (never inside fenced code; CommonMark's rule: a bullet, or an ordered
item numbered 1, may interrupt a paragraph).
"""

from __future__ import annotations

import re
from typing import Any

_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)]) +\S")
_INTERRUPTS = re.compile(r"^ {0,3}(?:[-*+]|1[.)]) +\S")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_NOT_PARAGRAPH = ("|", "#", "<", ">")


def lists_after_paragraphs(markdown: str) -> str:
    out: list[str] = []
    fence = ""
    block = ""  # "" after a blank line; "para", "list" or "other" (a table, a heading, HTML, a quote)
    for line in markdown.split("\n"):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1) == fence:
                fence = ""
        elif opening:
            fence, block = opening.group(1), "other"
        elif not line.strip():
            block = ""
        elif (_ITEM.match(line) and block in ("", "list")) or (block == "para" and _INTERRUPTS.match(line)):
            if block == "para":
                out.append("")
            block = "list"
        elif not block:
            block = "other" if line.lstrip().startswith(_NOT_PARAGRAPH) else "para"
        out.append(line)
    return "\n".join(out)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return lists_after_paragraphs(markdown)
