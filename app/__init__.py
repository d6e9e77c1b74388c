"""The applications above the library: the ``arena`` command line (:mod:`app.cli`), the HTTP
service (:mod:`app.service`) and batch validation (:mod:`app.batch`).  They import the
validators, the engine and the file format (and the editor for the commands that draw with Qt);
nothing below imports them."""
