"""One log format for `skat serve` and the uvicorn inside it: every line has
its time, level, logger and message, as text or (``--log-json``) as one
JSON object a line for a log collector. `log_config` is a `logging.config`
dictionary that both the root logger and uvicorn take, so that uvicorn's
own lines (its start, errors, access lines) look like ours."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

#: ``--log-level``'s choices, the least severe last.
LEVELS = ("critical", "error", "warning", "info", "debug")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class TextFormatter(logging.Formatter):
    """``2026-12-06T10:15:02.123Z INFO skat.server: message``: UTC, to the
    millisecond, so that the lines of several workers sort together."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _utc(record)


class JsonFormatter(logging.Formatter):
    """``{"time": ..., "level": ..., "logger": ..., "message": ...}``, and
    ``exception`` with the traceback where there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def _utc(record: logging.LogRecord) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{stamp}.{int(record.msecs):03d}Z"


def log_config(level: str, as_json: bool = False) -> dict[str, Any]:
    """The logging configuration of the server process: one handler on
    stderr for every logger, uvicorn's included (``level``: one of `LEVELS`)."""
    formatter = JsonFormatter if as_json else TextFormatter
    # uvicorn's loggers hand their lines to the root's handler (no handler
    # of their own: one format, and no line twice)
    quiet = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"skat": {"()": f"{__name__}.{formatter.__name__}"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "skat",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": {**quiet, "level": level.upper()},
            "uvicorn.error": {**quiet, "level": level.upper()},
            "uvicorn.access": {**quiet, "level": level.upper()},
        },
    }


__all__ = ["LEVELS", "JsonFormatter", "TextFormatter", "log_config"]
