"""The page against the protocol (issue 50, point 5), without a browser:
every type of message the server sends (`messages.ServerMessage`) has a
handler in the table page (table.js's HANDLERS) or is named in its IGNORED,
and the page names no type the server does not send. A new server message
fails here until the page says what it does with it."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec

from skat.server import messages

TABLE_JS = Path(__file__).resolve().parents[2] / "src" / "skat" / "web" / "static" / "table.js"


def _server_types() -> set[str]:
    """The ``type`` tags of ServerMessage; also that every message struct of
    messages.py (a ``type`` tag) is in that union."""
    union = {cls.__struct_config__.tag for cls in typing.get_args(messages.ServerMessage)}
    tagged = {
        cls.__struct_config__.tag
        for name, cls in vars(messages).items()
        if not name.startswith("_")  # the base of every message
        and isinstance(cls, type)
        and issubclass(cls, msgspec.Struct)
        and cls.__struct_config__.tag_field == "type"
        and isinstance(cls.__struct_config__.tag, str)
    }
    assert tagged <= union, f"messages.py structs not in ServerMessage: {sorted(tagged - union)}"
    return union


def _page() -> tuple[set[str], set[str]]:
    """The keys of table.js's HANDLERS and the names in its IGNORED."""
    text = TABLE_JS.read_text(encoding="utf-8")
    block = re.search(r"^export const HANDLERS = \{\n(.*?)^\};", text, re.M | re.S)
    assert block, "table.js has no HANDLERS table"
    handled = set(re.findall(r"^  (\w+)\(m\) \{", block.group(1), re.M))
    ignored = re.search(r"^export const IGNORED = new Set\(\[([^\]]*)\]\);", text, re.M)
    assert ignored, "table.js has no IGNORED set"
    return handled, set(re.findall(r'"(\w+)"', ignored.group(1)))


def test_every_server_message_has_a_handler_in_the_page_or_is_ignored() -> None:
    sent = _server_types()
    handled, ignored = _page()
    assert len(sent) >= 9 and len(handled) >= 8  # the parsing found the real tables
    assert not handled & ignored, f"handled and ignored: {sorted(handled & ignored)}"
    missing = sent - handled - ignored
    assert not missing, f"the server sends {sorted(missing)}: handle them in table.js or ignore"
    unknown = (handled | ignored) - sent
    assert not unknown, f"table.js names {sorted(unknown)}, which the server never sends"


def test_the_page_dispatches_through_its_handlers() -> None:
    """onMessage looks the type up in HANDLERS (no switch whose default
    swallows a type silently) and warns for one it neither handles nor ignores."""
    text = TABLE_JS.read_text(encoding="utf-8")
    body = re.search(r"^export function onMessage\(m\) \{\n(.*?)^\}", text, re.M | re.S)
    assert body, "table.js has no onMessage"
    assert "HANDLERS[m.type](m)" in body.group(1)
    assert "IGNORED.has(m.type)" in body.group(1) and "console.warn" in body.group(1)
    assert "switch" not in body.group(1)
