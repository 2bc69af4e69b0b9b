"""The server's metrics in the Prometheus text format (docs/deploy.md,
Metrics). `Metrics` holds what is counted as it happens (moves, their
latency, the computer players' decisions, the store's writes); `collector`
reads the rest from the live objects at each scrape (tables, connections,
the search and analysis pools). Each server process has its own registry:
in a cluster every worker is scraped on its own address (`serve`).

The listener is a thread of prometheus-client's, not a route of the app:
it is off unless asked for, it is on an address of its own (an operator's
network, never the players'), and it answers while the event loop is busy.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Mapping
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .work import AnalysisPool, SearchPool


# What a scrape reads, as protocols: the store and the registry count with
# `Metrics`, so importing them here would close an import circle.
class _Conn(Protocol):
    @property
    def closed(self) -> bool: ...


class _Actor(Protocol):
    @property
    def conns(self) -> Collection[_Conn]: ...


class Tables(Protocol):
    """What a scrape reads of `registry.Tables`."""

    @property
    def actors(self) -> Mapping[str, _Actor]: ...
    @property
    def search(self) -> SearchPool: ...
    @property
    def analyses(self) -> AnalysisPool: ...


class Store(Protocol):
    """What a scrape reads of `store.Store`."""

    @property
    def failing_since(self) -> float | None: ...


#: Seconds: a move is usually stored and sent in a few milliseconds; a
#: PostgreSQL commit far away or a loaded machine makes it tens.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The counters and histograms of one server process, in a registry of
    their own (tests make many apps in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter(
            "skat_moves",
            "Moves at the tables: by a person or a computer player, accepted or refused.",
            ["by", "outcome"],
            registry=r,
        )
        self._moves: dict[tuple[str, bool], Any] = {}
        self.act_seconds = Histogram(
            "skat_act_seconds",
            "Seconds from a person's move reaching its table to its answer (stored and sent).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.decisions = Counter(
            "skat_computer_decisions",
            "Decisions of computer players, by player (the level's player, e.g. novice) and phase.",
            ["player", "phase"],
            registry=r,
        )
        self.fallbacks = Counter(
            "skat_computer_fallbacks",
            "Decisions a computer player failed or made too late: the heuristic's instead.",
            ["player", "phase"],
            registry=r,
        )
        self.store_write_seconds = Histogram(
            "skat_store_write_seconds",
            "Seconds from an event's append to its commit (group commit included).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.store_write_failures = Counter(
            "skat_store_write_failures",
            "Appends the store refused (the tables wait and retry).",
            registry=r,
        )
        self.collector_seconds = Histogram(
            "skat_collector_seconds",
            "Pauses of Python's cyclic garbage collector (`skat serve`'s schedule), by generation.",
            ["generation"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self._collections = [self.collector_seconds.labels(str(g)) for g in range(3)]
        self.rebuilt = Counter(
            "skat_tables_rebuilt",
            "Tables rebuilt from the store: their whole log read and replayed.",
            registry=r,
        )

    def collected(self, generation: int, seconds: float) -> None:
        """A collection of the cyclic garbage collector paused the loop."""
        self._collections[generation].observe(seconds)

    def move(self, by: str, accepted: bool) -> None:
        # the labelled counters looked up once each (every move counts here)
        key = (by, accepted)
        child = self._moves.get(key)
        if child is None:
            child = self._moves[key] = self.moves.labels(by, "accepted" if accepted else "refused")
        child.inc()

    def watch(self, tables: Tables, store: Store, info: dict[str, str]) -> None:
        """Read the live objects at every scrape from now on."""
        self.registry.register(_Live(tables, store, info))


class _Live(Collector):
    def __init__(self, tables: Tables, store: Store, info: dict[str, str]) -> None:
        self.tables = tables
        self.store = store
        self.info = info

    def collect(self) -> Iterator[Metric]:
        # a scrape runs in the listener's thread: copies, never iterations
        # of what the event loop changes meanwhile
        actors = list(self.tables.actors.values())
        info = GaugeMetricFamily(
            "skat_server_info", "This server process: version, worker, solver core.",
            labels=list(self.info),
        )  # fmt: skip
        info.add_metric(list(self.info.values()), 1)
        yield info
        yield _gauge("skat_open_tables", "Tables this process plays now.", len(actors))
        connections = sum(len([c for c in list(a.conns) if not c.closed]) for a in actors)
        yield _gauge("skat_connections", "Open websocket connections to tables.", connections)
        search = self.tables.search
        yield _counter(
            "skat_search_late", "Searches that answered after their budget.", search.late
        )
        yield _counter(
            "skat_search_restarts", "Search process pools replaced after one died.", search.restarts
        )
        yield _gauge("skat_search_waiting", "Searches waiting for a process.", search.waiting())
        analyses = self.tables.analyses
        yield _gauge(
            "skat_analysis_in_flight",
            "Open-card analyses running or queued.",
            len(dict(analyses._inflight)),
        )
        yield _gauge(
            "skat_analysis_capacity",
            "Analyses that may run or wait at once (more are refused: 503).",
            analyses.limit,
        )
        yield _counter("skat_analysis_refused", "Analyses refused as busy.", analyses.refused)
        yield _counter(
            "skat_analysis_made",
            "Analyses and uploaded files' readings run in the pool (not merged, not cached).",
            analyses.made,
        )
        failing = self.store.failing_since
        yield _gauge(
            "skat_store_failing_seconds",
            "Seconds the store has refused writes (0: it works).",
            0.0 if failing is None else time.monotonic() - failing,
        )


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


def _counter(name: str, doc: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, doc, value=value)


def serve_metrics(registry: CollectorRegistry, address: str) -> tuple[Any, int]:
    """Serve ``registry`` on ``HOST:PORT`` (PORT 0: a free one) in a thread;
    returns the server (``shutdown()`` stops it) and the port."""
    from prometheus_client import start_http_server

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"metrics address {address!r} is not HOST:PORT")
    server, _thread = start_http_server(int(port), host.strip("[]") or "127.0.0.1", registry)
    return server, int(server.server_address[1])


__all__ = ["LATENCY_BUCKETS", "Metrics", "serve_metrics"]
