"""Tortoise Derby: a small game added to Arena Studio from outside, as a third party would.

Its files, one per layer of the studio:

- ``model.py``: the arena file (typed model, document, new arena, ``RULESET``) - schema layer;
- ``tortoise-derby.schema.json``: the JSON Schema of its files (``$ref``-ing the studio's shared
  ``common.schema.json`` by its ``$id``);
- ``movement.py``: how a tortoise crawls (shortest paths around rocks) - its rules engine;
- ``checks.py``: its validators (``arena validate``, the service, the editor's live findings);
- ``travel.py``: its travel query (``arena travel``).

It adds nothing to the editor: the default one (a tool per element kind, the inspector from the
JSON Schema, symmetry mode naming a tortoise's image by the next free player) serves it.

``pyproject.toml`` (beside this package) registers them through entry points.
"""
