"""The online server: Starlette app, table actors, wire protocol, store (issue 5)."""

from .actor import ServerConfig
from .app import create_app

__all__ = ["ServerConfig", "create_app"]
