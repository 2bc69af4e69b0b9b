"""The arena's per-player statistics (issue 9): game shares, Kontra rate,
Kontra and Re said with their outcomes, thrown-in deals."""

from __future__ import annotations

import json

from click.testing import CliRunner

from skat.cli import main
from skat.players import make_player, player_names
from skat.players.arena import run_arena
from skat.series import ListOptions


def test_statistics_add_up_in_a_mirror_match_with_kontra() -> None:
    report = run_arena("heuristic", "heuristic", deals=40, seed=3, options=ListOptions(kontra=True))
    s = report.summary()
    assert s["plays"] == 40 * 6
    assert 0 <= s["thrown_in_rate"] <= 1
    a, b = s["a_stats"], s["b_stats"]
    same = [k for k in a if not k.startswith("decision_ms")]
    assert [a[k] for k in same] == [b[k] for k in same]  # a mirror: the same figures
    shares = a["game_shares"]
    assert set(shares) == {"suit", "grand", "null"}
    assert abs(sum(shares.values()) - 1) < 1e-3
    for key in ("kontra", "re"):
        assert a[key]["said"] == a[key]["won"] + a[key]["lost"]
    assert a["kontra"]["said"] > 0  # Kontra is said in 40 deals
    side = report.sides[0]
    assert a["kontra_rate"] == round(side.kontra_said / side.defended, 4)
    # every thrown-in play counts for each seat at the table
    assert side.thrown_in == s["thrown_in_rate"] * s["plays"] * 3 / 2


def test_kontra_and_re_are_zero_at_a_table_without_kontra() -> None:
    s = run_arena("heuristic", "random", deals=10, seed=4).summary()
    for key in ("a_stats", "b_stats"):
        assert s[key]["kontra"] == {"said": 0, "won": 0, "lost": 0}
        assert s[key]["re"] == {"said": 0, "won": 0, "lost": 0}
        assert s[key]["kontra_rate"] == 0


def test_the_first_heuristic_stays_reachable_for_comparison() -> None:
    assert {"heuristic", "heuristic-v1"} <= set(player_names(lab=True))
    assert make_player("heuristic-v1", lab=True).name == "heuristic-v1"
    s = run_arena("heuristic", "heuristic-v1", deals=6, seed=5).summary()
    assert s["a"] == "heuristic" and s["b"] == "heuristic-v1"


def test_the_arena_command_reports_the_new_figures() -> None:
    args = ["arena", "heuristic", "random", "--deals", "6", "--rules", '{"kontra": true}']
    out = CliRunner().invoke(main, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"game_shares", "kontra_rate", "kontra", "re", "thrown_in_rate"} <= set(data["a_stats"])
    assert "thrown_in_rate" in data
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "games: suit" in text.output and "Kontra in" in text.output
    assert "thrown in:" in text.output
