"""One log format for `skat serve` and its uvicorn (issue 51): every line
has time, level, logger and message, as text or as JSON lines
(``--log-json``); ``--log-level`` takes only the levels there are."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from skat.cli import main
from skat.cli.logs import JsonFormatter, TextFormatter
from skat.players.solver import IMPLEMENTATION
from tests.helpers.processes import free_port

TEXT_LINE = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: .+"
)


def _record(name: str, level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, message, (), None)


def test_the_text_and_json_formats_carry_time_level_logger_and_message() -> None:
    line = TextFormatter().format(_record("uvicorn.error", logging.WARNING, "a message"))
    assert TEXT_LINE.fullmatch(line), line
    assert line.endswith(" WARNING uvicorn.error: a message")
    obj = json.loads(JsonFormatter().format(_record("skat.server", logging.INFO, "é done")))
    assert set(obj) == {"time", "level", "logger", "message"}
    assert (obj["level"], obj["logger"], obj["message"]) == ("INFO", "skat.server", "é done")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", obj["time"])
    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.LogRecord("skat", logging.ERROR, __file__, 1, "x", (), sys.exc_info())
    assert "ValueError: boom" in json.loads(JsonFormatter().format(failed))["exception"]


def test_an_unknown_log_level_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(main, ["serve", "--log-level", "foo"])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "'foo' is not one of 'critical', 'error', 'warning', 'info', 'debug'" in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_the_server_and_uvicorn_log_in_one_format(tmp_path: Path, as_json: bool) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "skat", "serve", "--port", str(port), "--data", str(tmp_path)]
    argv += ["--log-level", "INFO", *(["--log-json"] if as_json else [])]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("SKAT_")},
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, "the server exited"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    lines = err.splitlines()
    loggers = set()
    for line in lines:
        if as_json:
            obj = json.loads(line)
            assert set(obj) >= {"time", "level", "logger", "message"}, line
            loggers.add(obj["logger"])
        else:
            assert TEXT_LINE.fullmatch(line), line
            loggers.add(line.split()[2].rstrip(":"))
    # ours, uvicorn's own and its access lines: all in the one format
    assert {"skat.server", "uvicorn.error", "uvicorn.access"} <= loggers, lines
    # the solver core it runs is said at start
    assert any(f"solver core: {IMPLEMENTATION}" in line for line in lines), lines
