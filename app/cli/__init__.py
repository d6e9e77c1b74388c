"""The command line (``arena``) and its commands."""
