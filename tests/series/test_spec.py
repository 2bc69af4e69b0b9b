"""The options of a list, declared once (skat/series/spec.py; issue 29,
point 1): the declaration, `ListOptions`, the rules' R0.4 table and the
docs' option table say the same, and every value has its words in the
three languages of the interface."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pytest

from skat.series import LIST_SPEC, ListOptions
from skat.series.spec import LANGS, Option, Words, options_table
from tests.helpers.paths import ROOT, SHARED

DOC = ROOT / "docs" / "rules-decisions.md"


def test_every_list_option_is_declared_with_its_default() -> None:
    declared = [o.name for o in LIST_SPEC]
    assert declared == [f.name for f in fields(ListOptions)]
    defaults = ListOptions()
    for o in LIST_SPEC:
        assert getattr(defaults, o.name) == o.default, o.name


def test_the_declaration_covers_the_rules_switches_table() -> None:
    """SKAT-RULES.md R0.4 lists the switches; each is declared with the
    rule section the table names (`deals_per_list` is the option `deals`)."""
    text = (SHARED / "rules" / "SKAT-RULES.md").read_text(encoding="utf-8")
    section = text[text.index("### R0.4") : text.index("## R1 ")]
    rows = re.findall(r"^\| `(\w+)` \|[^|]*\|[^|]*\| ([^|]+) \|", section, re.M)
    assert len(rows) == 14
    by_name = {o.name: o for o in LIST_SPEC}
    for name, rule in rows:
        o = by_name["deals" if name == "deals_per_list" else name]
        first = rule.strip().split(",")[0].split(".")[0]  # R9.4 -> R9, R8 -> R8
        assert o.rule.startswith(first), (name, rule, o.rule)


def test_every_value_has_words_in_every_language() -> None:
    for o in LIST_SPEC:
        for lang in LANGS:
            w = o.words[lang]
            assert w.label and w.help, (o.name, lang)
            for c in o.choices:
                assert w.values[str(c)], (o.name, lang, c)
        # the translations are translations, not copies of the English
        assert o.words["de"].help != o.words["en"].help, o.name
        assert o.words["da"].help != o.words["en"].help, o.name


def test_a_declaration_without_words_is_refused() -> None:
    en = Words("Push", "Push the skat on.", {"on": "on"})
    with pytest.raises(ValueError, match="no words in de, da"):
        Option("schieberamsch", "switch", False, {"en": en}, "R9.2")
    words = {lang: Words("x", "y") for lang in LANGS}
    with pytest.raises(ValueError, match="no en words"):
        Option("pushes", "choice", 1, words, "R9.2", choices=(1, 2))


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("players", 3.0, "players must be 3 or 4"),
        ("players", True, "players must be 3 or 4"),
        ("players", "3", "players must be 3 or 4"),
        ("kontra", 1, "kontra must be true or false"),
        ("kontra", "true", "kontra must be true or false"),
        ("deals", 0, "deals must be a positive whole number"),
        ("deals", 1.5, "deals must be a positive whole number"),
        ("first_dealer", 5, "first_dealer must be a whole number from 0 up to 3"),
        ("scoring", "bierlachs", "scoring must be seeger_fabian or plain"),
        ("kontra_window", None, "kontra_window must be own_first_card, first_lead or trick_one"),
        ("bock_triggers", "schwarz", "bock_triggers must be a list"),
        ("bock_triggers", [1], "bock_triggers must be a list of names"),
        ("bock_triggers", ["klopfen"], "bock_triggers: unknown value"),
    ],
)
def test_a_wrong_value_is_refused_with_the_options_name(
    name: str, value: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ListOptions.from_dict({name: value})


def test_every_declared_value_is_accepted() -> None:
    for o in LIST_SPEC:
        values: list[Any] = list(o.choices) if o.kind == "choice" else []
        if o.kind == "switch":
            values = [False, True]
        for v in values:
            data: dict[str, Any] = {o.name: v}
            if o.name == "ramsch_after_bock":
                data["bock"] = True
            assert getattr(ListOptions.from_dict(data), o.name) == v
    assert ListOptions.from_dict({"bock_triggers": ["schwarz"]}).bock_triggers == {"schwarz"}


def test_the_docs_option_table_is_the_declarations() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = text[text.index("<!-- options: begin -->\n") + 24 : text.index("<!-- options: end -->")]
    assert shown == options_table(), "regenerate with skat.series.spec.options_table()"


def test_wire_form_names_kind_values_and_words() -> None:
    o = next(x for x in LIST_SPEC if x.name == "all_pass")
    d = o.describe()
    assert d["kind"] == "choice" and d["choices"] == ["einpassen", "ramsch"]
    assert d["default"] == "einpassen" and d["rule"] == "R2.6, R9.1" and d["more"] == "ramsch"
    assert d["words"]["de"]["values"]["einpassen"] == "Einpassen"
    assert set(o.describe("da")["words"]) == {"da"}
    triggers = next(x for x in LIST_SPEC if x.name == "bock_triggers").describe()
    assert triggers["default"] == ["kontra_lost", "kontra_re", "sixty_sixty", "value_100"]
