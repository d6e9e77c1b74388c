"""RFC 9457 problem documents: every error the service returns is one of these, never a
traceback. ``problems`` lists located details (an arena's schema errors, bad parameters)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # FastAPI is imported lazily: worker processes build problems without it
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

MEDIA_TYPE = "application/problem+json"
BASE = "https://arena-studio.dev/problems/"
log = logging.getLogger("arena.service")

#: JSON schema of a problem document (also published in the OpenAPI document).
PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Problem",
    "description": "An RFC 9457 problem document.",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "description": "A URI identifying the kind of problem."},
        "title": {"type": "string", "description": "Short summary of the kind of problem."},
        "status": {"type": "integer", "description": "The HTTP status code."},
        "detail": {"type": "string", "description": "What went wrong with this request."},
        "problems": {
            "type": "array",
            "description": "Located details: arena problems (file, line, column, JSON pointer) or request parameters (in, pointer).",
            "items": {
                "type": "object",
                "required": ["pointer", "message"],
                "properties": {
                    "file": {"type": "string"},
                    "line": {"type": "integer"},
                    "column": {"type": "integer"},
                    "in": {"type": "string", "description": "query, body or header, for request parameters."},
                    "pointer": {"type": "string"},
                    "message": {"type": "string"},
                },
            },
        },
    },
}


def problem(status: int, kind: str, title: str, detail: str,
            problems: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": BASE + kind, "title": title, "status": status, "detail": detail}
    if problems is not None:
        doc["problems"] = problems
    return doc


class ProblemError(Exception):
    """Raise anywhere in a request to answer with this problem document."""

    def __init__(self, doc: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(doc.get("detail", ""))
        self.doc = doc
        self.headers = headers

    @classmethod
    def of(cls, status: int, kind: str, title: str, detail: str,
           problems: list[dict[str, Any]] | None = None, headers: dict[str, str] | None = None) -> ProblemError:
        return cls(problem(status, kind, title, detail, problems), headers)


def response(doc: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    from fastapi.responses import JSONResponse

    return JSONResponse(doc, status_code=int(doc["status"]), media_type=MEDIA_TYPE, headers=headers)


def param_problem(where: str, name: str, message: str) -> dict[str, Any]:
    return {"in": where, "pointer": "/" + name, "message": message}


_TITLES = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 406: "Not acceptable",
           408: "Request timeout", 413: "Request body too large", 415: "Unsupported media type"}


def install(app: FastAPI) -> None:
    """Exception handlers turning every error into a problem document."""
    from fastapi import Request
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> JSONResponse:
        return response(exc.doc, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        items = []
        for err in exc.errors():
            loc = [str(x) for x in err.get("loc", ())]
            where = loc[0] if loc else "request"
            items.append({"in": where, "pointer": "/" + "/".join(loc[1:]), "message": str(err.get("msg", "invalid"))})
        return response(problem(422, "invalid-parameters", "Invalid request parameters",
                                f"{len(items)} request parameter(s) are invalid", items))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        title = _TITLES.get(exc.status_code, "HTTP error")
        detail = exc.detail if isinstance(exc.detail, str) else title
        kind = title.lower().replace(" ", "-")
        return response(problem(exc.status_code, kind, title, detail), dict(exc.headers or {}))

    from starlette.requests import ClientDisconnect

    from app.service.limits import ClientGone

    @app.exception_handler(ClientGone)
    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, exc: Exception) -> JSONResponse:
        # the client left mid-request: nobody reads the answer, and it is not a server error
        log.info("client disconnected during %s %s", request.method, request.url.path)
        return response(problem(400, "client-disconnected", "Client disconnected",
                                "the client disconnected before the request was complete"))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error serving %s %s", request.method, request.url.path)
        return response(problem(500, "internal-error", "Internal server error",
                                "the service failed unexpectedly; the error was logged"))
