"""Parent-death detection for the editor's helper processes (no Qt): the shared mechanism of
:mod:`validators.lifeline`, which the CLI's and the service's helpers use too.

The travel workers and the overlays' child processes are started through multiprocessing's
forkserver, so their parent is the forkserver, not the editor, and they block on their request
queues (which they also hold the writing end of): killed with ``kill -9``, the editor would
leave them, the forkserver (kept alive by the workers' copy of its "alive" pipe) and the
resource tracker running.

A :class:`Lifeline` is a pipe whose writing end only the editor's process holds (a forkserver
child receives just the reading end, with its arguments). :func:`watch` - called first thing
in a child - starts a thread that blocks reading it; when the editor dies, however it dies,
the kernel closes the writing end, the read returns end-of-file and the child exits at once.
With the workers gone, the forkserver sees its alive pipe close and exits, and so does the
resource tracker: nothing is left, and a restarted editor starts one fresh set.
"""

from __future__ import annotations

from validators.lifeline import Lifeline, lifeline, watch

__all__ = ["Lifeline", "lifeline", "watch"]
