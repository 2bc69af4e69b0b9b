"""A move's action is parsed once, at the websocket's edge (issue 50, point
5): the table and its queue get the engine's `Action`, and an action that is
none is refused there with the engine's reason, before any table sees it."""

from __future__ import annotations

import pytest

from skat.engine import parse_action
from skat.server import protocol as p
from skat.server.errors import ErrorCode


def test_a_move_arrives_as_the_engines_action() -> None:
    msg = p.decode('{"type": "act", "action": "play CJ", "version": 7}')
    assert msg == p.Act(action=parse_action("play CJ"), version=7)
    assert str(msg.action) == "play CJ"  # what is stored and sent again
    bid = p.decode(b'{"type": "act", "action": "bid 18", "version": 0}')
    assert isinstance(bid, p.Act) and bid.action == parse_action("bid 18")
    for text in ("claim", "claim schneider", "claim schwarz", "refuse"):  # R6.6
        msg = p.decode(f'{{"type": "act", "action": "{text}", "version": 7}}')
        assert isinstance(msg, p.Act) and str(msg.action) == text


@pytest.mark.parametrize(
    ("action", "code", "move"),
    [
        ('"jump"', "MALFORMED_ACTION", True),
        ('"bid x"', "MALFORMED_ACTION", True),
        ('"play XX"', "INVALID_CARD", True),
        # issue 54, finding 5: a claim as written, nothing else
        ('"CLAIM"', "MALFORMED_ACTION", True),
        ('"claim "', "MALFORMED_ACTION", True),
        ('"claim  schneider"', "MALFORMED_ACTION", True),
        ('"claim Schwarz"', "MALFORMED_ACTION", True),
        ('"claim grand"', "MALFORMED_ACTION", True),
        ('"claim schneider ' + "x" * 300 + '"', "MALFORMED_ACTION", True),
        ('" pass"', "MALFORMED_ACTION", True),
        ("5", ErrorCode.BAD_MESSAGE.value, False),  # not text: not a message of the protocol
    ],
)
def test_an_action_that_is_none_is_refused_at_the_edge(action: str, code: str, move: bool) -> None:
    with pytest.raises(p.ProtocolError) as err:
        p.decode(f'{{"type": "act", "action": {action}, "version": 1}}')
    assert (err.value.code, err.value.move) == (code, move)
