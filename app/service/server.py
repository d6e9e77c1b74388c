"""Running the service under uvicorn with the connection limits the service needs.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but has no limit on how long
a client may take to send a request's headers: a client that opens connections and never
finishes them holds them open.  :class:`HeaderTimeoutProtocol` is uvicorn's h11 protocol with
that limit: a connection whose request line and headers are not complete ``header_timeout``
seconds after the connection opened (or after its first byte, for the next request on a
kept-alive connection) is answered ``408 Request Timeout`` and closed.  How long a body may take
is bounded in the app (:func:`app.service.limits.read_body`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.service.limits import ServiceConfig
from app.service.problems import MEDIA_TYPE, problem

log = logging.getLogger("arena.service")



def _timeout_response(seconds: float) -> bytes:
    """408 with a problem document, written straight to the transport (no request to answer)."""
    body = json.dumps(problem(408, "request-timeout", "Request timeout",
                              f"the request line and headers did not arrive within {seconds:g} s")).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: " + MEDIA_TYPE.encode() + b"\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections that do not send complete request headers
    within :attr:`header_timeout` seconds."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # still reading (or waiting for) a request's headers
            if self._header_timer is None:
                self._arm_header_timer()
        else:
            self._cancel_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self._cancel_header_timer()  # the keep-alive timeout guards the idle time that follows
        super().on_response_complete()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._header_timeout_expired)

    def _cancel_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _header_timeout_expired(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        log.debug("closing a connection whose request headers took over %g s", self.header_timeout)
        self.transport.write(_timeout_response(self.header_timeout))
        self.transport.close()


def protocol_for(config: ServiceConfig) -> type[HeaderTimeoutProtocol]:
    """The protocol class with ``config``'s header timeout."""
    return type("ArenaH11Protocol", (HeaderTimeoutProtocol,), {"header_timeout": config.header_timeout})


def run(app: Any, config: ServiceConfig, *, host: str, port: int, log_level: str = "info") -> None:
    """Serve ``app`` with uvicorn under ``config``'s connection limits."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level=log_level, proxy_headers=False,
                http=protocol_for(config), timeout_keep_alive=config.keep_alive_timeout,
                timeout_graceful_shutdown=5)
