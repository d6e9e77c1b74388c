"""A small in-memory LRU cache of responses keyed by a content hash of the request.

The key is the SHA-256 of the endpoint, the normalized parameters (parsed, defaults filled,
repeatable ones sorted, as canonical JSON) and the body bytes, so identical requests (whatever
the order of their query parameters) share one entry. Only deterministic answers are stored
(200 results and 422 arena problems), never 429/503/5xx.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Cached:
    status: int
    media_type: str
    body: bytes


def cache_key(endpoint: str, params: dict[str, Any], body: bytes) -> str:
    h = hashlib.sha256()
    h.update(endpoint.encode())
    h.update(b"\0")
    h.update(json.dumps(params, sort_keys=True, separators=(",", ":"), default=str).encode())
    h.update(b"\0")
    h.update(body)
    return h.hexdigest()


class ResponseCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> Cached | None:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return item

    def put(self, key: str, item: Cached) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._data[key] = item
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)
