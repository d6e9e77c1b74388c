"""Drop-down lists that open below their box (issue 42): Qt's Fusion style opens a combo box's
list *over* the box with the current item under the mouse, so a press that lingers or a
double-click picks whatever item lands under the cursor (the Kind box's mis-click trap). The
editor's application style is wrapped in :class:`ListBelowStyle`, which asks every combo box in
the application (tool options, inspector, dialogs) for the plain list under the box instead."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleHintReturn, QStyleOption, QWidget


class ListBelowStyle(QProxyStyle):
    """The application's style, except that combo boxes drop their list below the box."""

    def styleHint(self, hint: QStyle.StyleHint, option: QStyleOption | None = None,  # noqa: N802 - Qt's name
                  widget: QWidget | None = None, returnData: QStyleHintReturn | None = None) -> int:  # noqa: N803
        if hint == QStyle.StyleHint.SH_ComboBox_Popup:
            return 0
        return int(super().styleHint(hint, option, widget, returnData))


def install(app: QApplication | None = None) -> None:
    """Wrap the application's style (once; QApplication takes the style's ownership)."""
    app = app or QApplication.instance()  # type: ignore[assignment]
    if not isinstance(app, QApplication) or isinstance(app.style(), ListBelowStyle):
        return
    base = QStyleFactory.create(app.style().name())
    app.setStyle(ListBelowStyle(base) if base is not None else ListBelowStyle())


__all__ = ["ListBelowStyle", "install"]
