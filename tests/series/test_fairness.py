"""The verifiable shuffle and the list record (docs/fairness.md,
docs/formats.md; SKAT-RULES.md R1.5, R1.6) and the list commands of the
``skat`` CLI (``sheet``, ``verify``, ``random-list``, ``replay``).

The known-answer test re-implements docs/fairness.md step by step with
`hashlib` and `hmac` only; it does not use `skat.series.shuffle`.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import hmac
import io
import json
import random
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skat.cli import main
from skat.engine import Card, Discard, Pass, Phase, parse_action
from skat.series import ListOptions, Series, commitment, deal_deck, new_seed
from skat.series.record import list_record, load_list, replay_list, verify_list

SEED = bytes(range(32))
#: SHA-256 of SEED (fairness.md step 1).
SEED_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
#: Deal 1 of a list with SEED (golden value, also recomputed independently below).
GOLDEN_DEAL_1 = (
    "SK SJ H8 C8 C7 S9 H9 H7 C9 DT CK DK D8 S7 HK D9 "
    "HQ HA SA HT SQ DJ DQ D7 ST CQ CA CJ HJ DA CT S8"
)
#: fairness.md step 3: the starting order.
START = (
    "CA CT CK CQ CJ C9 C8 C7 SA ST SK SQ SJ S9 S8 S7 "
    "HA HT HK HQ HJ H9 H8 H7 DA DT DK DQ DJ D9 D8 D7"
).split()


# ------------------------------------------------------------------ reference shuffle
def reference_words(seed: bytes, k: int) -> Iterator[int]:
    """Step 2: HMAC-SHA256(key=seed, "skat-deal" || k || i), i = 0, 1, ...,
    concatenated and read as 4-byte big-endian unsigned words."""
    i = 0
    while True:
        message = b"skat-deal" + struct.pack(">I", k) + struct.pack(">I", i)
        block = hmac.new(seed, message, hashlib.sha256).digest()
        yield from struct.unpack(">8I", block)
        i += 1


def reference_deck(seed: bytes, k: int) -> list[str]:
    """Step 3: Fisher-Yates from the start order with rejection sampling."""
    deck = list(START)
    words = reference_words(seed, k)
    for i in range(31, 0, -1):
        m = i + 1
        while True:
            u = next(words)
            if u < 2**32 - (2**32 % m):
                break
        j = u % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def names(cards: list[Card]) -> list[str]:
    return [c.name for c in cards]


# ------------------------------------------------------------------------ the shuffle
@pytest.mark.parametrize("k", [1, 2, 36])
def test_known_answer(k: int) -> None:
    """deal_deck follows docs/fairness.md steps 2-3 exactly."""
    assert names(deal_deck(SEED, k)) == reference_deck(SEED, k)


def test_golden_first_deal() -> None:
    assert " ".join(names(deal_deck(SEED, 1))) == GOLDEN_DEAL_1
    assert " ".join(reference_deck(SEED, 1)) == GOLDEN_DEAL_1


def test_commitment_is_sha256_of_the_seed() -> None:
    """Step 1: the commitment is SHA-256(seed) as 64 hex digits."""
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest() == SEED_COMMITMENT
    assert Series(ListOptions(deals=1), seed=SEED).commitment == SEED_COMMITMENT


def test_new_seed_is_32_fresh_bytes() -> None:
    a, b = new_seed(), new_seed()
    assert len(a) == len(b) == 32
    assert a != b


@pytest.mark.parametrize("seed", [SEED, bytes(32), b"\xff" * 32, hashlib.sha256(b"x").digest()])
def test_deal_deck_is_a_deterministic_permutation(seed: bytes) -> None:
    decks = [deal_deck(seed, k) for k in range(1, 49)]
    for k, deck in enumerate(decks, 1):
        assert len(deck) == 32
        assert sorted(deck) == list(Card)  # every card exactly once
        assert deal_deck(seed, k) == deck  # deterministic
        assert names(deck) == reference_deck(seed, k)
    assert len({tuple(d) for d in decks}) == 48  # different per deal number


def test_deal_deck_differs_per_seed() -> None:
    seeds = [bytes([i]) * 32 for i in range(20)] + [SEED]
    firsts = {tuple(deal_deck(s, 1)) for s in seeds}
    assert len(firsts) == len(seeds)


def test_deal_deck_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        deal_deck(b"short", 1)
    with pytest.raises(ValueError):
        deal_deck(SEED, 0)


def test_list_deals_the_shuffle_by_r1_5() -> None:
    """Steps 2 and 4: deal k of a list is deal_deck(seed, k), dealt 3-skat-4-3
    with forehand the seat left of the dealer (R1.4, R1.5)."""
    series = Series(ListOptions(players=4, deals=6, first_dealer=2), seed=SEED)
    for k in range(1, 7):
        deal = series.deal
        d = deal_deck(SEED, k)
        assert list(deal.deck) == d
        forehand = (deal.dealer + 1) % 4
        assert deal.seat_of(0) == forehand
        assert set(deal.hand(forehand)) == set(d[0:3] + d[11:15] + d[23:26])
        assert set(deal.hand((deal.dealer + 2) % 4)) == set(d[3:6] + d[15:19] + d[26:29])
        assert set(deal.hand((deal.dealer + 3) % 4)) == set(d[6:9] + d[19:23] + d[29:32])
        assert set(deal.dealt_skat) == set(d[9:11])
        assert len(deal.hand(deal.dealer)) == 0  # the dealer sits out at four
        for _ in range(3):
            seat = deal.current_seat
            assert seat is not None
            series.apply(Pass(), seat)
        if k < 6:
            series.next_deal()


# -------------------------------------------------------------------- list records
def played_list(deals: int = 4, seed: bytes = SEED, rng_seed: int = 7) -> Series:
    """A finished list: deal 1 is a Null game of middlehand at 18 (so that
    it has card play and a Null announcement), the rest uniformly random."""
    rng = random.Random(rng_seed)
    series = Series(ListOptions(deals=deals), seed=seed, names=["Anna", "Ben", "Cora"])
    deal = series.deal
    for pos, text in ((1, "bid 18"), (0, "pass"), (2, "pass"), (1, "pickup")):
        series.apply(parse_action(text), deal.seat_of(pos))
    discard = next(a for a in deal.legal_actions() if isinstance(a, Discard))
    series.apply(discard, deal.seat_of(1))
    series.apply(parse_action("announce null"), deal.seat_of(1))
    while not series.is_over():
        deal = series.deal
        if deal.is_terminal():
            series.next_deal()
            continue
        seat = deal.current_seat
        assert seat is not None
        legal = deal.legal_actions()
        series.apply(legal[rng.randrange(len(legal))], seat)
    return series


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(list_record(played_list())))
    assert data["deals"][0]["actions"][5] == [2, "announce null"]
    assert any(a[1].startswith("play ") for a in data["deals"][0]["actions"])
    return data


def test_seed_is_revealed_only_when_the_list_is_over() -> None:
    """fairness.md step 5: the record written during play has "seed": null."""
    series = Series(ListOptions(deals=2), seed=SEED)
    assert series.seed is None
    assert list_record(series)["seed"] is None
    assert list_record(series)["commitment"] == SEED_COMMITMENT
    for _ in range(3):
        series.apply(Pass(), series.deal.current_seat)  # type: ignore[arg-type]
    assert series.seed is None and list_record(series)["seed"] is None
    series.next_deal()
    assert series.seed is None and list_record(series)["seed"] is None
    for _ in range(3):
        series.apply(Pass(), series.deal.current_seat)  # type: ignore[arg-type]
    assert series.is_over()
    assert series.seed == SEED
    assert list_record(series)["seed"] == SEED.hex()


def test_unfinished_list_does_not_verify() -> None:
    series = Series(ListOptions(deals=2), seed=SEED)
    data = json.loads(json.dumps(list_record(series)))
    assert verify_list(data) != []


def test_honest_list_verifies(record: dict[str, Any]) -> None:
    assert record["seed"] == SEED.hex()
    assert record["commitment"] == SEED_COMMITMENT
    assert len(record["deals"]) == len(record["sheet"]) == 4
    assert verify_list(record) == []
    assert verify_list(load_list(json.dumps(record))) == []
    rebuilt = replay_list(record)
    assert rebuilt.problems == []
    assert [r.to_dict() for r in rebuilt.series.rows] == record["sheet"]


def test_changed_seed_is_reported(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    data["seed"] = bytes(32).hex()
    problems = verify_list(data)
    assert any("commitment" in p for p in problems), problems


def test_changed_seed_and_commitment_is_reported(record: dict[str, Any]) -> None:
    """A new seed with a matching commitment still does not give these cards."""
    data = copy.deepcopy(record)
    data["seed"] = bytes(32).hex()
    data["commitment"] = commitment(bytes(32))
    problems = verify_list(data)
    assert problems
    assert any("deal 1" in p for p in problems), problems


@pytest.mark.parametrize("k", [1, 3])
def test_changed_deck_of_one_deal_is_reported(record: dict[str, Any], k: int) -> None:
    """Swap the two skat cards of deal k (indices 9 and 10, R1.5): every hand is
    the same, every action stays legal, but the deck is not the shuffle."""
    data = copy.deepcopy(record)
    deck = data["deals"][k - 1]["deck"].split()
    deck[9], deck[10] = deck[10], deck[9]
    data["deals"][k - 1]["deck"] = " ".join(deck)
    problems = verify_list(data)
    assert problems
    assert any(f"deal {k}" in p for p in problems), problems


def test_illegal_changed_action_is_reported(record: dict[str, Any]) -> None:
    """The first card of deal 1 replaced by a card of another hand."""
    data = copy.deepcopy(record)
    actions = data["deals"][0]["actions"]
    i = next(i for i, a in enumerate(actions) if a[1].startswith("play "))
    deck = data["deals"][0]["deck"].split()
    middlehand_card = deck[3]  # R1.5: dealt to middlehand, not to the forehand who leads
    assert actions[i][1] != f"play {middlehand_card}"
    actions[i][1] = f"play {middlehand_card}"
    problems = verify_list(data)
    assert problems
    assert any("CARD_NOT_IN_HAND" in p for p in problems), problems


def test_legal_but_different_action_is_reported(record: dict[str, Any]) -> None:
    """ "announce null" -> "announce null ouvert": still legal (46 >= 18, the
    same card order), but the stored sheet no longer matches the replay."""
    data = copy.deepcopy(record)
    actions = data["deals"][0]["actions"]
    assert actions[5][1] == "announce null"
    actions[5][1] = "announce null ouvert"
    rebuilt = replay_list(data)  # every action is legal
    assert rebuilt.series.rows[0].value == 46
    assert record["sheet"][0]["value"] == 23
    problems = verify_list(data)
    assert any("sheet" in p for p in problems), problems


def test_truncated_list_is_reported(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    del data["deals"][-1]
    del data["sheet"][-1]
    assert verify_list(data) != []
    data = copy.deepcopy(record)
    data["deals"][-1]["actions"] = data["deals"][-1]["actions"][:-1]
    assert verify_list(data) != []
    data = copy.deepcopy(record)
    del data["deals"][-1]
    assert verify_list(data) != []


def test_changed_sheet_is_reported(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    row = data["sheet"][0]
    row["seeger_fabian"] = [e + 10 for e in row["seeger_fabian"]]
    assert any("sheet" in p for p in verify_list(data))


# ---------------------------------------------------------------------------- the CLI
def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def list_file(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "list.json"
    path.write_text(json.dumps(record))
    return path


def test_cli_verify(list_file: Path, tmp_path: Path, record: dict[str, Any]) -> None:
    code, out = run("verify", str(list_file))
    assert code == 0, out
    assert "verified" in out
    bad = copy.deepcopy(record)
    bad["seed"] = bytes(32).hex()
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    code, out = run("verify", str(bad_path))
    assert code != 0
    assert "verified" not in out
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][5][1] = "announce null ouvert"
    bad_path.write_text(json.dumps(bad))
    code, out = run("verify", str(bad_path))
    assert code != 0
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json")
    code, _ = run("verify", str(garbage))
    assert code != 0


def test_cli_sheet_table(list_file: Path) -> None:
    code, out = run("sheet", str(list_file))
    assert code == 0, out
    for name in ("Anna", "Ben", "Cora"):
        assert name in out
    assert "total" in out


def test_cli_sheet_csv(list_file: Path, record: dict[str, Any]) -> None:
    code, out = run("sheet", str(list_file), "--csv")
    assert code == 0, out
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 1 + len(record["deals"])
    assert {"Anna", "Ben", "Cora"} <= set(rows[0])
    assert [r[0] for r in rows[1:]] == [str(k) for k in range(1, len(record["deals"]) + 1)]


def test_cli_sheet_json(list_file: Path, record: dict[str, Any]) -> None:
    code, out = run("sheet", str(list_file), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["players"] == ["Anna", "Ben", "Cora"]
    assert data["rows"] == record["sheet"]
    assert len(data["totals"]) == 3


@pytest.mark.parametrize(
    ("players", "options"),
    [("3", "{}"), ("4", '{"bock": true, "kontra": true, "all_pass": "ramsch"}')],
)
def test_cli_random_list_verifies(tmp_path: Path, players: str, options: str) -> None:
    out_path = tmp_path / "random.json"
    args = ["random-list", str(out_path), "--players", players, "--deals", "6"]
    code, out = run(*args, "--seed", SEED.hex(), "--rng", "3", "--options", options)
    assert code == 0, out
    data = load_list(out_path.read_text())
    assert data["commitment"] == SEED_COMMITMENT
    assert len(data["deals"]) == 6
    assert verify_list(data) == []
    code, out = run("verify", str(out_path))
    assert code == 0 and "verified" in out
    code, out = run("sheet", str(out_path), "--csv")
    assert code == 0, out
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 1 + 6
    assert {f"Player {i}" for i in range(1, int(players) + 1)} <= set(rows[0])
    code, out = run("replay", str(out_path))
    assert code == 0, out
    assert len([json.loads(line) for line in out.splitlines() if line.strip()]) == 6


def test_cli_random_list_refuses_bad_options(tmp_path: Path) -> None:
    code, _ = run(
        "random-list",
        str(tmp_path / "x.json"),
        "--options",
        '{"bock": true, "ramsch_after_bock": true, "bock_overlap": "stack"}',
    )
    assert code != 0


def test_cli_replay_list_record(list_file: Path, record: dict[str, Any]) -> None:
    code, out = run("replay", str(list_file))
    assert code == 0, out
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert len(lines) == len(record["deals"])
    assert all(isinstance(obj, dict) and "kind" in obj for obj in lines)
    assert [obj["kind"] for obj in lines] == [row["kind"] for row in record["sheet"]]
    assert lines[0]["game"] == "null"


def test_phase_after_load(record: dict[str, Any]) -> None:
    """A loaded record replays to a finished list, every deal settled."""
    series = replay_list(load_list(json.dumps(record))).series
    assert series.is_over()
    assert all(d.phase is Phase.DONE for d in series.deals)
    assert series.seed == SEED


def test_the_csv_has_a_ramsch_deals_card_points() -> None:
    """Issue 26, item 10: a Ramsch row of the CSV gave no card points; now its
    points column holds each seat's, in the columns' order (the entries'
    check: the most points lose them)."""
    import random

    from skat.engine import Pass, View
    from skat.players import make_player, play_list
    from skat.series import ListOptions, Series
    from skat.sheetview import sheet_csv

    class Passer:  # passes every auction: every deal is a Ramsch
        def __init__(self, seed: int) -> None:
            self.random = make_player("random", random.Random(seed), lab=True)

        def choose(self, view: View) -> Any:
            return Pass() if Pass() in view.legal_actions else self.random.choose(view)

        def notify(self, *args: Any) -> None:
            pass

    series = Series(ListOptions(deals=3, all_pass="ramsch"), seed=bytes(32), names=["A", "B", "C"])
    play_list(series, [Passer(s) for s in range(3)])  # type: ignore[list-item]
    rows = list(csv.reader(io.StringIO(sheet_csv(series))))
    head = rows[0]
    ramsch = [r for r in rows[1:] if r[head.index("kind")] == "ramsch"]
    assert len(ramsch) == 3
    for r in ramsch:
        points = [int(x) for x in r[head.index("points")].split("/")]
        assert sum(points) == 120 and len(points) == 3
        entries = [int(r[head.index(n)]) for n in ("A", "B", "C")]
        if all(e <= 0 for e in entries):
            assert {i for i, e in enumerate(entries) if e < 0} == {
                i for i, p in enumerate(points) if p == max(points)
            }
