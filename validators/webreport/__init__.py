"""The HTML report (``arena report``, packs' ``reports/ID.report.html``): a validation report
and its arena as one self-contained page.  :func:`render_report` is the whole API."""

from validators.webreport.render import Header, header_for, render_report, studio_version

__all__ = ["Header", "header_for", "render_report", "studio_version"]
