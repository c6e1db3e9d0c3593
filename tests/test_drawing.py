"""Boards and the game list laid out without rich (gametape.cli.drawing) are what rich lays
out, character for character, wherever the layout does not hand the drawing back to rich."""

from __future__ import annotations

import contextvars
import io
import random
import re

import pytest
from rich.cells import cell_len

from gametape.cli import quick
from gametape.cli.board import drawing, render, to_rich
from gametape.cli.common import _rich_table
from gametape.cli.drawing import NARROW, Panel, lay_out, text_of, zero_width
from gametape.cli.output import SafeConsole
from gametape.engine import simulate as sim
from gametape.engine.board import Board, Card, Zone
from gametape.engine.registry import all_rulesets
from gametape.i18n import choose
from gametape.usecases.check import validate_path
from gametape.usecases.store import Store

WIDTHS = (60, 80)


def _rich(renderable, width: int) -> str:
    buffer = io.StringIO()
    console = SafeConsole(file=buffer, width=width, color_system=None, soft_wrap=True)
    console.print(renderable, soft_wrap=False)
    return buffer.getvalue()


def _boards(rules, seed: int):
    players = max(rules.min_players, min(3 + seed % 2, rules.max_players))
    game = sim.play(rules, sim.default_players(players), rules.default_bot, random.Random(seed))
    for seq, state in enumerate(game.fold.states[::6]):
        for seat in (None, 0, -1):
            yield rules.board(rules.view(state, seat), f"{rules.name} · g · seq {seq}")


@pytest.mark.parametrize("lang", ["en", "hu", "fa"])
@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
def test_every_board_is_laid_out_as_rich_lays_it_out(rules, lang):
    """In every language (#52): a board in Hungarian or Persian is laid out here, as rich
    would, where each of its letters takes a cell."""
    laid = 0
    for seed in range(2):
        drawn = contextvars.copy_context().run(lambda s=seed: (choose(lang), [*_boards(rules, s)]))
        for board in drawn[1]:
            for width in WIDTHS:
                lines = lay_out(drawing(board), width)
                if lines is not None:
                    laid += 1
                    assert text_of(lines, colour=False) == _rich(render(board), width)
    # the layout draws some of every game's boards itself, in each language (a Persian
    # board's zero-width non-joiners, U+200C, taking no cell)
    assert laid


def test_what_the_layout_cannot_promise_is_left_to_rich():
    wide = Board(title="t", zones=(Zone(title="z", cards=(Card(text="x" * 50),) * 3),))
    assert lay_out(drawing(wide), 80) is None  # a grid wider than the terminal
    for text in ("esc\x1b[31m", "名前", "tab\there"):  # a control, wide characters
        assert lay_out(drawing(Board(title="t", status=text)), 80) is None
    long_word = Board(title="t", status="x" * 100)
    assert lay_out(drawing(long_word), 80) is None  # rich folds a word longer than a line


def test_words_wrap_where_rich_wraps_them():
    rng = random.Random(4)
    words = ["a", "to", "ann", "clue", "touched", "(*", "=", "clued),", "possibilities"]
    for _ in range(300):
        status = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 40)))
        status = status.replace(" ", "  ", rng.randrange(3))
        panel = Panel(rng.choice(["t", "a longer title"]), [[(status, "dim")]])
        for width in (20, 33, 80):
            lines = lay_out(panel, width)
            assert lines is not None
            assert text_of(lines, colour=False) == _rich(to_rich(panel), width), status


def test_the_narrow_characters_are_one_cell_wide_for_rich():
    assert all(cell_len(c) == 1 for c in NARROW)
    # and those it counts as none wide: Persian's joiners and its marks above and below
    persian = [chr(c) for c in (*range(0x0610, 0x0660), 0x0670, 0x200C, 0x200D)]
    zero = [c for c in persian if zero_width(c)]
    assert len(zero) > 30 and all(cell_len(c) == 0 for c in zero)


def test_colours_are_terminal_sequences_around_the_same_text():
    card = Card(text="r3", colour="red")
    board = Board(title="t", zones=(Zone(title="ann", cards=(card,), text="her hand"),))
    lines = lay_out(drawing(board), 80)
    assert lines is not None
    painted = text_of(lines, colour=True)
    assert "\x1b[1;31mr3\x1b[0m" in painted
    assert re.sub("\x1b\\[[0-9;]*m", "", painted) == text_of(lines, colour=False)


def test_the_game_list_is_rich_s_table_at_its_own_width(tmp_path):
    store = Store(tmp_path)
    for i, rules in enumerate(all_rulesets()):
        game = sim.play(rules, sim.default_players(rules.min_players), "random", random.Random(i))
        store.create(game.setup, game.events[1:])
    reports = [validate_path(store.path(g)) for g in store.game_ids()]
    table = quick.reports_table(reports, listing=True)
    lines = quick.lines_of_table(table, terminal=False)
    assert text_of(lines, colour=False) == _rich(_rich_table(table), 1000)


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
def test_a_counter_is_never_broken_between_its_label_and_its_value(rules):
    """At 80 columns a row too wide for the terminal stacks its counters (#49: the recorder
    showed "votes⏎0" and "used:⏎-")."""
    stacked = 0
    for board in _boards(rules, 0):
        shown = _rich(render(board), 80)
        lines = [line.strip("│ ") for line in shown.splitlines()]
        for zone in board.zones:
            for counter in zone.counters:
                said = f"{counter.label} {counter.value}" + (f"/{counter.of}" if counter.of else "")
                assert any(said in line for line in lines), (said, shown)
                stacked += any(line.startswith(said) for line in lines)
    assert stacked or rules.name == "hanabi"  # the narrow layout was drawn
