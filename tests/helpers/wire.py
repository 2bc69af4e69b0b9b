"""A server message as a client receives it: the typed struct encoded by the
protocol's one encoder and parsed back (what the page and the bots read)."""

from __future__ import annotations

import json
from typing import Any

from skat.server import protocol


def wire(message: Any) -> Any:
    return json.loads(protocol.encode(message))
