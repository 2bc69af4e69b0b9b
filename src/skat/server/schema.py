"""The store's tables and their migrations, and the typed rows read from
them (docs/storage.md): `Store` (store.py) writes and reads through these."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
    inspect,
    select,
)
from sqlalchemy.engine import Connection

from .database import StoreError

metadata = MetaData()


tables_t = Table(
    "skat_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, finished, expired
    Column("config", Text, nullable=False),  # options and settings (JSON)
    Column("seed", String(64), nullable=False),  # secret until the list is over
    Column("commitment", String(64), nullable=False),
    Column("creator_hash", String(64), nullable=False),
)


events_t = Table(
    "skat_events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),
    Column("at", Float, nullable=False),
)


# Who runs a table (several workers on one database): one row per owned table.
leases_t = Table(
    "skat_leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),  # the worker's name
    Column("token", String(32), nullable=False),  # that worker process's incarnation
    Column("expires_at", Float, nullable=False),
    Column("wanted_by", String(64), nullable=True),
)


# Tables created per client address in the last hour, for the limit that
# holds across all workers (`Tables.create`); rows older than an hour go.
creations_t = Table(
    "skat_creations",
    metadata,
    Column("address", String(64), nullable=False),  # a hash of the client address
    Column("at", Float, nullable=False),
    Index("skat_creations_by_address", "address", "at"),
)


# Who created each table (a hash of the address, as in skat_creations) and
# whether its computer players search: the limits on unfinished tables per
# address (`Tables.create`) count these joined with the tables' status.
origins_t = Table(
    "skat_origins",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("address", String(64), nullable=False),
    Column("strong", Integer, nullable=False),  # 1: searching computer players
    Index("skat_origins_by_address", "address"),
)


# The lobby (issue 27): the public tables waiting for people, each with what
# the home page shows of it (JSON), kept by the table's actor; listed joined
# with the tables' status, so a row a crash left behind shows nothing.
lobby_t = Table(
    "skat_lobby",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("listed_at", Float, nullable=False),
    Column("summary", Text, nullable=False),
)


# Tournaments (issue 27): one row each, its entrants and draws in ``doc``
# (JSON, at most a few hundred entrants), changed only by compare-and-set on
# ``version`` (several workers may take entries at once); its tables are
# ordinary tables (skat_tables), listed in ``doc``.
tournaments_t = Table(
    "skat_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, finished, expired
    Column("config", Text, nullable=False),  # name, rules, series, rounds, fill (JSON)
    Column("seed", String(64), nullable=False),  # the draw's secret until the end
    Column("commitment", String(64), nullable=False),
    Column("organiser_hash", String(64), nullable=False),
    Column("address", String(64), nullable=True),  # a hash of the creating client's
    Column("version", Integer, nullable=False),
    Column("doc", Text, nullable=False),  # entrants and series (JSON)
    # 1 while a public tournament takes entries by its shared link (the lobby)
    Column("listed", Integer, nullable=False),
    Index("skat_tournaments_by_address", "address", "created_at"),
    Index("skat_tournaments_listed", "listed", "created_at"),
)


# Profiles (issue 48, point 3): a name a person keeps without signing up.
# The key the person's browser holds is stored only as its SHA-256 hash (as
# seat tokens are); ``address`` is a hash of the creating client's address
# (the limit per address); ``public`` 1 when its owner lets others read it.
profiles_t = Table(
    "skat_profiles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("key_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("name", String(64), nullable=True),  # the name it last sat down with
    Column("public", Integer, nullable=False),
    Column("address", String(64), nullable=True),
    Index("skat_profiles_by_key", "key_hash", unique=True),
    Index("skat_profiles_by_address", "address", "created_at"),
)


# A profile's lists: the table and the seat its person sat at (linked when
# they sat down with the profile's key), and what the profile shows of the
# list once it is over (``figures``, JSON) and once it is reviewed
# (``review``, JSON): kept, so that a finished list is not replayed again.
profile_lists_t = Table(
    "skat_profile_lists",
    metadata,
    Column("profile_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("figures", Text, nullable=True),
    Column("review", Text, nullable=True),
    Index("skat_profile_lists_by_table", "table_id"),
)


# A profile's tournaments: entered with the profile's key, under ``name``.
profile_tournaments_t = Table(
    "skat_profile_tournaments",
    metadata,
    Column("profile_id", String(32), primary_key=True),
    Column("tournament_id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("at", Float, nullable=False),
)


# The schema version of the database: one row (absent in databases of version 1).
schema_t = Table("skat_schema", metadata, Column("version", Integer, nullable=False))


# ------------------------------------------------------------- migrations
# Each step takes a database from version i to i + 1 (step 1: from empty) and
# must keep creating what it created when it was written; later changes are
# new steps. They run in one transaction at `Store.open`.
def _v1(conn: Connection) -> None:
    tables_t.create(conn, checkfirst=True)
    events_t.create(conn, checkfirst=True)


def _v2(conn: Connection) -> None:
    leases_t.create(conn)


def _v3(conn: Connection) -> None:
    creations_t.create(conn)


def _v4(conn: Connection) -> None:
    origins_t.create(conn)


def _v5(conn: Connection) -> None:
    lobby_t.create(conn)


def _v6(conn: Connection) -> None:
    tournaments_t.create(conn)


def _v7(conn: Connection) -> None:
    profiles_t.create(conn)
    profile_lists_t.create(conn)
    profile_tournaments_t.create(conn)


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5, _v6, _v7)


SCHEMA_VERSION = len(MIGRATIONS)


# pg_advisory_xact_lock key that serialises migrations of workers starting at once
MIGRATION_LOCK = 0x736B6174  # "skat"


def schema_version(conn: Connection) -> int:
    """0: empty; 1: made before versions were stored (its tables exist)."""
    names = set(inspect(conn).get_table_names())
    if schema_t.name in names:
        return int(conn.execute(select(func.max(schema_t.c.version))).scalar_one() or 0)
    return 1 if tables_t.name in names else 0


def migrate(conn: Connection) -> int:
    """Bring the schema up to `SCHEMA_VERSION`; the version found."""
    found = schema_version(conn)
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"the database has schema version {found}, newer than this program's "
            f"{SCHEMA_VERSION}: upgrade skat"
        )
    for step in MIGRATIONS[found:]:
        step(conn)
    if found < SCHEMA_VERSION:
        schema_t.create(conn, checkfirst=True)
        conn.execute(schema_t.delete())
        conn.execute(schema_t.insert().values(version=SCHEMA_VERSION))
    return found


@dataclass
class StoredTable:
    id: str
    created_at: float
    updated_at: float
    status: str
    config: dict[str, Any]
    seed: str
    commitment: str
    creator_hash: str


@dataclass
class StoredTournament:
    id: str
    created_at: float
    status: str
    config: dict[str, Any]
    seed: str
    commitment: str
    organiser_hash: str
    version: int
    doc: dict[str, Any]


#: What a tournament's stored options always hold (`tournaments.tournament_config`).
TOURNAMENT_KEYS = frozenset({"name", "series", "rounds", "fill", "public", "lang", "rules"})


def tournament_from_row(row: Any) -> StoredTournament:
    """A tournament's row; raises `CorruptRow` for one that cannot be read."""
    for name in ("status", "seed", "commitment", "organiser_hash"):
        if not isinstance(getattr(row, name), str):
            raise CorruptRow(row.id, f"{name} is not text")
    if not isinstance(row.version, int):
        raise CorruptRow(row.id, "version is not a number")
    if row.status not in TOURNAMENT_STATUSES:
        raise CorruptRow(row.id, f"an unknown status {row.status[:20]!r}")
    config = json_object(row.id, "its options", row.config)
    doc = json_object(row.id, "its entrants", row.doc)
    if not (isinstance(doc.get("entrants"), list) and isinstance(doc.get("series"), list)):
        raise CorruptRow(row.id, "its entrants or series are not lists")
    missing = TOURNAMENT_KEYS - set(config)
    if missing:
        raise CorruptRow(row.id, f"its options lack {', '.join(sorted(missing))}")
    return StoredTournament(
        id=row.id,
        created_at=number_of(row.id, "created_at", row.created_at),
        status=row.status,
        config=config,
        seed=row.seed,
        commitment=row.commitment,
        organiser_hash=row.organiser_hash,
        version=row.version,
        doc=doc,
    )


@dataclass
class Event:
    version: int
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class Activity:
    """A live table as the start-up and the sweep see it, without its events."""

    id: str
    status: str
    created_at: float
    version: int  # its last event's (0: none yet)
    active: float  # its last event that is not chat or a reaction (its creation if none)


class CorruptRow(ValueError):
    """A stored row that cannot be read (a value of the wrong type, text
    that is not JSON): its table is marked broken, the rest serve."""

    def __init__(self, table_id: str, why: str) -> None:
        super().__init__(f"table {table_id}: {why}")
        self.table_id = table_id


def number_of(table_id: str, what: str, value: Any) -> float:
    # SQLite keeps whatever it is given; a float column may hold text
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise CorruptRow(table_id, f"{what} is not a number: {value!r:.40}")


def json_object(table_id: str, what: str, text: Any) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise CorruptRow(table_id, f"{what} is not JSON") from None
    if not isinstance(value, dict):
        raise CorruptRow(table_id, f"{what} is not a JSON object")
    return value


#: The statuses a table's row may have ("broken": marked so by the server).
TABLE_STATUSES = frozenset({"open", "playing", "finished", "expired", "broken"})
#: The statuses a tournament's row may have.
TOURNAMENT_STATUSES = frozenset({"open", "finished", "expired"})


def table_from_row(row: Any) -> StoredTable:
    """A table's row; raises `CorruptRow` for one that cannot be read (a
    status none of `TABLE_STATUSES` too: never served as a live table)."""
    for name in ("status", "seed", "commitment", "creator_hash"):
        if not isinstance(getattr(row, name), str):
            raise CorruptRow(row.id, f"{name} is not text")
    if row.status not in TABLE_STATUSES:
        raise CorruptRow(row.id, f"an unknown status {row.status[:20]!r}")
    return StoredTable(
        id=row.id,
        created_at=number_of(row.id, "created_at", row.created_at),
        updated_at=number_of(row.id, "updated_at", row.updated_at),
        status=row.status,
        config=json_object(row.id, "its options", row.config),
        seed=row.seed,
        commitment=row.commitment,
        creator_hash=row.creator_hash,
    )
