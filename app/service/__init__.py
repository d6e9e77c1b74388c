"""The validation service: an HTTP API (FastAPI) over the validators, the travel planner, the
renderer and pack verification, with request limits and isolated worker processes.

Build the app with :func:`app.service.app.create_app`; ``arena serve`` runs it under uvicorn.
This package imports nothing heavy at import time, so that worker processes (which import
:mod:`app.service.workers`) start quickly.
"""
