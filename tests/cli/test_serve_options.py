"""`skat serve`'s options of the server's tunables come from the config
(issue 29, point 3): every field declared with `tunable` shows in --help
with its default, range and help, and a value given on the command line
reaches the `ServerConfig` and `StoreConfig` the server is made with."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skat.cli import main
from skat.cli.serve import STORE_PREFIX, configs
from skat.server.config import ServerConfig
from skat.server.store import StoreConfig
from skat.server.tunable import face_of


def _faced(cls: Any, prefix: str) -> list[tuple[str, dataclasses.Field[Any]]]:
    return [
        ("--" + (prefix + f.name).replace("_", "-"), f)
        for f in dataclasses.fields(cls)
        if face_of(f) is not None
    ]


FACED = [*_faced(ServerConfig, ""), *_faced(StoreConfig, STORE_PREFIX)]


def _help_lines() -> dict[str, str]:
    """serve's --help, one line per option: an option's help that starts on
    the next line (after a long name) is joined to it."""
    result = CliRunner().invoke(main, ["serve", "--help"], terminal_width=400)
    assert result.exit_code == 0, result.output
    entries: list[str] = []
    for line in result.output.split("Options:\n", 1)[1].splitlines():
        if line.startswith("  -"):
            entries.append(line.strip())
        elif entries and line.strip():
            entries[-1] += " " + line.strip()
    return {entry.split()[0]: entry for entry in entries}


def test_the_tunables_are_the_documented_ones() -> None:
    assert [name for name, _ in FACED] == [
        "--bot-delay", "--next-delay", "--next-delay-people", "--solo-next", "--grace",
        "--max-rounds",
        "--tables-per-address", "--open-tables-per-address", "--strong-tables-per-address",
        "--max-open-tables", "--send-timeout", "--send-queue", "--worker", "--lease-ttl",
        "--tournaments-per-address", "--tournament-tables", "--connect-burst",
        "--entries-per-address", "--profiles-per-address",
        "--db-pool-size", "--db-max-overflow", "--db-pool-timeout", "--db-sqlite-sync",
    ]  # fmt: skip


def test_every_tunable_shows_in_help_with_its_default_and_help() -> None:
    lines = _help_lines()
    for name, f in FACED:
        face = face_of(f)
        assert face is not None
        assert name in lines, f"{name} is not in skat serve --help"
        line = lines[name]
        assert f"default: {f.default}" in line, line
        assert f"[env var: SKAT_{name[2:].upper().replace('-', '_')};" in line, line
        if face.help is not None:
            assert face.help in line, line
        if face.low is not None and face.high is not None:
            assert f"{face.low}<=x<={face.high}]" in line, line
        elif face.low is not None:
            assert f"x>={face.low}]" in line, line
    # the options that set no config field stay where they were
    order = list(lines)
    assert order[:4] == ["--host", "--port", "--db", "--data"]
    assert order[4 : 4 + len(FACED)] == [name for name, _ in FACED]
    assert order[4 + len(FACED) :] == [
        "--uds", "--forwarded-allow-ips", "--ws-ping-interval", "--loop", "--metrics",
        "--log-level", "--log-json", "-h,",
    ]  # fmt: skip


def test_configs_builds_both_configs_from_the_option_values() -> None:
    config, store = configs({"max_rounds": 4, "worker": "w2", "db_pool_size": 2})
    assert (config.max_rounds, config.worker, store.pool_size) == (4, "w2", 2)
    assert config.grace == ServerConfig().grace and store.max_overflow == StoreConfig().max_overflow


def test_a_value_on_the_command_line_reaches_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """serve with create_app and uvicorn replaced: nothing is served."""
    import uvicorn

    import skat.server
    import skat.server.store

    made: list[tuple[str, ServerConfig, StoreConfig]] = []

    def create_app(url: str, config: ServerConfig, store_config: StoreConfig) -> object:
        made.append((url, config, store_config))
        return object()

    async def check_database(url: str, config: StoreConfig | None = None) -> None:
        return None

    monkeypatch.setattr(skat.server, "create_app", create_app)
    monkeypatch.setattr(skat.server.store, "check_database", check_database)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    argv = [
        "serve", "--data", str(tmp_path), "--log-level", "warning",
        "--bot-delay", "0.25", "--max-rounds", "3", "--strong-tables-per-address", "0",
        "--send-queue", "64", "--worker", "w-7", "--lease-ttl", "12.5",
        "--db-pool-size", "2", "--db-max-overflow", "0", "--db-pool-timeout", "1.5",
        "--db-sqlite-sync", "normal",
    ]  # fmt: skip
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 0, result.output
    [(url, config, store)] = made
    assert url == f"sqlite+aiosqlite:///{tmp_path.resolve() / 'skat.db'}"
    assert config == dataclasses.replace(
        ServerConfig(),
        bot_delay=0.25,
        max_rounds=3,
        strong_tables_per_address=0,
        send_queue=64,
        worker="w-7",
        lease_ttl=12.5,
    )
    assert store == StoreConfig(pool_size=2, max_overflow=0, pool_timeout=1.5, sqlite_sync="normal")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--max-rounds", "0"], "0 is not in the range x>=1"),
        (["--lease-ttl", "601"], "601.0 is not in the range 1.0<=x<=600.0"),
        (["--db-pool-timeout", "0"], "0.0 is not in the range x>=0.1"),
        (["--worker", "a b"], "--worker: 1 to 64 letters, digits, '_', '.' or '-'"),
        (["--db-sqlite-sync", "off"], "'off' is not one of 'full', 'normal'"),
        (["--loop", "trio"], "'trio' is not one of 'auto', 'asyncio', 'uvloop'"),
    ],
)
def test_a_value_out_of_range_is_refused(argv: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["serve", *argv])
    assert result.exit_code == 2
    assert message in result.output
