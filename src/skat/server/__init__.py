"""The online server: Starlette app, table actors, wire protocol, store (issue 5)."""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
