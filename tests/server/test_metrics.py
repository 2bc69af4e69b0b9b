"""The server's Prometheus metrics (issue 51): served on an address of their
own, in the text format prometheus-client's parser reads, and moving as the
tables play; `/healthz` and the metrics name the solver core."""

from __future__ import annotations

import random
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from skat.engine import Phase
from skat.players.solver import IMPLEMENTATION
from skat.server.metrics import serve_metrics
from tests.helpers.server import join, new_table, pump, serve


def _scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the listener on ``port``: (name, labels) -> value."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        assert r.status == 200
        assert r.headers["content-type"].startswith("text/plain")
        text = r.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_the_metrics_move_when_moves_are_made(tmp_path: Path) -> None:
    with serve(tmp_path, worker="w-metrics") as (app, client, _):
        server, port = serve_metrics(app.state.metrics.registry, "127.0.0.1:0")
        try:
            before = _scrape(port)
            assert before[("skat_open_tables", ())] == 0
            assert before[("skat_connections", ())] == 0
            info = ("version", "worker", "solver")
            [(labels, one)] = [
                (dict(k[1]), v) for k, v in before.items() if k[0] == "skat_server_info"
            ]
            assert one == 1 and set(labels) == set(info)
            assert (labels["worker"], labels["solver"]) == ("w-metrics", IMPLEMENTATION)
            assert ("skat_act_seconds_count", ()) in before  # a histogram with no moves yet

            t = new_table(client, players=3, level="beginner")
            anna = join(client, t["id"], "Anna")
            anna.send(type="fill", creator=t["creator"])
            # Anna makes her first moves; the computer players make theirs
            pump([anna], lambda: anna.acted > 0 and not anna.my_turn(), random.Random(3))
            anna.barrier()
            after = _scrape(port)
        finally:
            server.shutdown()

    person = ("skat_moves_total", (("by", "person"), ("outcome", "accepted")))
    computer = ("skat_moves_total", (("by", "computer"), ("outcome", "accepted")))
    assert after[person] >= 1
    assert after[computer] >= 1
    assert after[("skat_act_seconds_count", ())] >= after[person]
    assert after[("skat_open_tables", ())] == 1
    assert after[("skat_connections", ())] == 1
    # by the computer player's name (the level's player) and the phase, so
    # that an operator sees where a level falls back (the discard, the play)
    decisions = {k[1]: v for k, v in after.items() if k[0] == "skat_computer_decisions_total"}
    assert decisions and sum(decisions.values()) >= after[computer]
    phases = {dict(labels)["phase"] for labels in decisions}
    assert "bidding" in phases and phases <= {str(p) for p in Phase}
    assert after[("skat_store_write_seconds_count", ())] > before.get(
        ("skat_store_write_seconds_count", ()), 0
    )
    assert after[("skat_store_write_failures_total", ())] == 0
    assert after[("skat_store_failing_seconds", ())] == 0
    for name in ("skat_search_late_total", "skat_search_restarts_total"):
        assert after[(name, ())] == 0
    assert after[("skat_analysis_capacity", ())] > 0


def test_a_refused_move_is_counted_as_refused(tmp_path: Path) -> None:
    with serve(tmp_path) as (app, client, _):
        server, port = serve_metrics(app.state.metrics.registry, "127.0.0.1:0")
        try:
            t = new_table(client, players=3, level="beginner")
            anna = join(client, t["id"], "Anna")
            anna.send(type="fill", creator=t["creator"])
            pump([anna], lambda: anna.my_turn())
            anna.send(type="act", action="no such move", version=anna.view_version)
            anna.wait_for(lambda m: m["type"] == "error")
            after = _scrape(port)
        finally:
            server.shutdown()
    assert after[("skat_moves_total", (("by", "person"), ("outcome", "refused")))] == 1
    assert after[("skat_act_seconds_count", ())] == 1


def test_healthz_names_the_solver_core(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        body = client.get("/healthz").json()
    assert body["solver"] == IMPLEMENTATION
    assert body["solver"] in ("c", "python")


@pytest.mark.parametrize("address", ["nowhere", "127.0.0.1:x"])
def test_a_metrics_address_without_a_port_is_refused(address: str) -> None:
    from prometheus_client import CollectorRegistry

    with pytest.raises(ValueError, match="HOST:PORT"):
        serve_metrics(CollectorRegistry(), address)
