"""The system's headless Chromium for the browser tests (Debian's ``chromium``, driven by
Playwright for Python: no browser download at test time; ``.ci/run`` installs it)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
#: Skips a browser test on a machine without the system Chromium.
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
                                    reason="no system Chromium at /usr/bin/chromium (.ci/run installs Debian's chromium)")


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched headless Chromium (a Playwright ``Browser``), closed on the way out."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the dev extra")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
