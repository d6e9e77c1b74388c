"""The browser front page at ``/`` (docs/service.md#the-front-page): plain HTML, CSS and script
shipped as package data (no build step, nothing fetched from elsewhere). The page drives the
jobs API (``/v1/jobs``): a report job for the file dropped, export and pack jobs for the
downloads, a diff job to compare with a second file."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

#: The assets served under ``/front/`` with their media types.
ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
#: The page's policy: its own script and style only (no inline code), requests to this origin
#: only, reports framed from this origin (each runs under its own policy, in a sandbox), no
#: plugins, forms or base URL, and no framing of the page by others.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                           "frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                           "frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    return files(__package__).joinpath(name).read_text("utf-8")


def page(max_body: int) -> str:
    """The page, told the service's arena size limit (the script checks a file against it
    before sending; the API refuses a larger body anyway)."""
    return _text("index.html").replace("__MAX_BODY__", str(int(max_body)))


def asset(name: str) -> str | None:
    """A script or style sheet of the page, or None for any other name."""
    return _text(name) if name in ASSETS else None
