"""The variant catalogue against hanab.live's own (reference data, read by tests only)."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

import pytest

from gametape.engine.game import Game
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import variants as V
from gametape.games.hanabi.deck import Deck, deck_of
from gametape.games.hanabi.events import HanabiOptions
from tests.conftest import shared

REFERENCE = ("data", "hanablive", "variants")
# hanab.live's variant keys, and ours
KEYS = {
    "specialRank": "special_rank",
    "specialRankAllClueColors": "special_all_colours",
    "specialRankNoClueColors": "special_no_colours",
    "specialRankAllClueRanks": "special_all_ranks",
    "specialRankNoClueRanks": "special_no_ranks",
    "specialRankDeceptive": "special_deceptive",
    "criticalRank": "critical_rank",
    "scarceOnes": "scarce_ones",
    "clueStarved": "clue_starved",
    "colorCluesTouchNothing": "colour_blind",
    "rankCluesTouchNothing": "rank_blind",
    "alternatingClues": "alternating_clues",
    "oddsAndEvens": "odds_and_evens",
    "synesthesia": "synesthesia",
    "funnels": "funnels",
    "chimneys": "chimneys",
    "upOrDown": "up_or_down",
    "throwItInAHole": "throw_it_in_a_hole",
    "cowAndPig": "cow_and_pig",
    "duck": "duck",
    "sudoku": "sudoku",
    "stackSize": "stack_size",
}
SUIT_FLAGS = {
    "allClueColors": "all_colours",
    "noClueColors": "no_colours",
    "allClueRanks": "all_ranks",
    "noClueRanks": "no_ranks",
    "oneOfEach": "one_of_each",
    "prism": "prism",
    "inverted": "inverted",
}


def _reference() -> dict[str, dict[str, Any]]:
    return {v["name"]: v for v in json.loads(shared(*REFERENCE, "variants.json").read_text())}


def _reference_suits() -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in json.loads(shared(*REFERENCE, "suits.json").read_text())}


def _suit_colours(ref: dict[str, Any]) -> list[str]:
    """hanab.live's rule: the listed clue colours, else none for a suit touched by every or no
    colour (or a prism), else the colour of its own name."""
    if "clueColors" in ref:
        return list(ref["clueColors"])
    if ref.get("allClueColors") or ref.get("noClueColors") or ref.get("prism"):
        return []
    return [ref["name"]]


def _variant_colours(ref: dict[str, Any], suits: dict[str, dict[str, Any]]) -> list[str]:
    if "clueColors" in ref:
        return list(ref["clueColors"])
    out: list[str] = []
    for name in ref["suits"]:
        s = suits[name.removesuffix(V.REVERSED)]
        if not s.get("allClueColors"):
            out += [c for c in _suit_colours(s) if c not in out]
    return out


def _modifiers(variant: V.Variant) -> dict[str, Any]:
    """Our variant's modifiers in hanab.live's keys, defaults left out as hanab.live does."""
    out: dict[str, Any] = {}
    for theirs, ours in KEYS.items():
        value = getattr(variant, ours)
        default = V.Variant.__struct_defaults__[V.Variant.__struct_fields__.index(ours) - 3]
        if value != default:
            out[theirs] = value
    if variant.clue_ranks != V.ALL_CLUE_RANKS:
        out["clueRanks"] = list(variant.clue_ranks)
    return out


def test_the_catalogue_names_the_same_2426_variants_with_the_same_suits_and_modifiers():
    ref, suits = _reference(), _reference_suits()
    ours = V.catalogue()
    assert sorted(ours) == sorted(ref)
    for name, theirs in ref.items():
        variant = ours[name]
        assert [s.name for s in variant.suits] == theirs["suits"], name
        expected = {
            k: v
            for k, v in theirs.items()
            if k not in ("id", "newID", "name", "suits", "clueColors")
        }
        assert _modifiers(variant) == expected, name
        assert list(variant.clue_colours) == _variant_colours(theirs, suits), name


def test_every_suit_has_hanablive_clue_colours_and_traits():
    for name, theirs in _reference_suits().items():
        if name == "Unknown":
            continue
        ours = V.SUITS[name]
        assert list(ours.colours) == _suit_colours(theirs), name
        for flag, trait in SUIT_FLAGS.items():
            assert getattr(ours, trait) == bool(theirs.get(flag)), (name, flag)
        assert ours.special == bool(theirs.get("createVariants")), name
        assert ours.shown == theirs.get("displayName", name)


def _popularity() -> dict[str, int]:
    with shared(*REFERENCE, "popular_variants.tsv").open() as f:
        return {row["Variant"]: int(row["Count"]) for row in csv.DictReader(f, delimiter="\t")}


def test_every_name_in_hanablive_s_catalogue_deals_and_the_crawl_is_all_covered(capsys):
    """#54: all 2,426 names play: each deals a game (two players and six) that starts and
    takes a first move; so every game of the crawl in a name hanab.live still lists is in a
    variant gametape plays."""
    counts = _popularity()
    catalogue = V.catalogue()
    for name in catalogue:
        for players in (2, 6):
            setup = RULESET.new_setup([f"p{i}" for i in range(players)], random.Random(0),
                                      {"variant": name})  # fmt: skip
            game = Game.new(setup)
            game.push(game.legal_moves(0)[0])
    # The crawl is of 2022: games in names hanab.live has since renamed or retired are left out.
    total = sum(c for n, c in counts.items() if n in catalogue)
    unknown = sum(c for n, c in counts.items() if n not in catalogue)
    with capsys.disabled():
        print(f"\nvariants played: {len(catalogue)} of {len(catalogue)}; games of the crawl in "
              f"them: {total:,}; in variants no longer listed: {unknown:,}")  # fmt: skip
    assert len(catalogue) == 2426


def test_an_unknown_name_is_refused_with_the_closest_spelling():
    with pytest.raises(V.UnknownVariant, match="did you mean 'Rainbow \\(6 Suits\\)'"):
        V.variant("rainbow (6 suits)")
    with pytest.raises(V.UnknownVariant, match="no variant 'Plaid'"):
        V.variant("Plaid")


# --- The clue rules, from the table docs/variants.md writes them in ----------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "variants.md"


def _table(marker: str) -> list[list[str]]:
    text = DOC.read_text()
    body = text.split(f"<!-- {marker} -->")[1].split(f"<!-- /{marker} -->")[0]
    rows = [line.strip().strip("|").split("|") for line in body.strip().splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def _clue(deck: Deck, word: str) -> tuple[int | None, int | None]:
    if word.isdigit():
        assert int(word) in deck.ranks, f"{deck.name} has no {word} clue"
        return None, int(word)
    return deck.colours.index(word), None


TOUCHES = _table("touch-table")


@pytest.mark.parametrize(("name", "card", "touched", "missed"), TOUCHES)
def test_which_clues_touch_which_cards_as_docs_variants_md_says(name, card, touched, missed):
    deck = deck_of(HanabiOptions(variant=name))
    suit, rank = card.rsplit(" ", 1)
    index = deck.suits.index(suit) * 5 + int(rank) - 1
    for words, expected in ((touched, True), (missed, False)):
        for word in filter(None, (w.strip() for w in words.split(","))):
            colour, clue_rank = _clue(deck, word)
            assert bool(deck.mask(colour, clue_rank) >> index & 1) is expected, (name, card, word)


def test_the_touch_table_covers_every_mechanism_played():
    variants = [V.catalogue()[row[0]] for row in TOUCHES]
    covered = {
        flag
        for v in variants
        for flag in (*KEYS.values(), "clue_ranks")
        if flag != "stack_size" and getattr(v, flag) not in (None, False, V.ALL_CLUE_RANKS)
    }
    traits = {t for v in variants for k in v.suits for t in SUIT_FLAGS.values() if getattr(k, t)}
    assert {"all_colours", "no_colours", "all_ranks", "no_ranks", "one_of_each", "prism"} <= traits
    assert any(len(k.colours) > 1 for v in variants for k in v.suits)  # dual colours
    for flag in (
        "special_rank",
        "special_all_colours",
        "special_no_colours",
        "special_all_ranks",
        "special_no_ranks",
        "special_deceptive",
        "colour_blind",
        "rank_blind",
        "odds_and_evens",
        "synesthesia",
        "funnels",
        "chimneys",
    ):
        assert flag in covered, flag


@pytest.mark.parametrize(("name", "suit", "copies"), _table("copies-table"))
def test_copies_of_each_rank_as_docs_variants_md_says(name, suit, copies):
    deck = deck_of(HanabiOptions(variant=name))
    s = deck.suits.index(suit)
    assert " ".join(str(c) for c in deck.copies[s * 5 : s * 5 + 5]) == copies
