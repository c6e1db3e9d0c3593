"""A recorder's notes at a Hanabi table are claims, not facts (DESIGN: claims and facts).

``see ann r1`` says what a watcher saw in ann's hand: every seat but ann sees it. Before, it
made the face a fact, so ann's own play of that card naming the face she then saw was refused
with "seq 1 showed it as red 1": the refusal told her the note. Now a card shown (a play, a
discard) or a clue is never refused for a note; a note it contradicts is void, and only the
seats that saw the note are told.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine.game import Game
from gametape.engine.ruleset import RuleViolation
from gametape.events import Store
from gametape.testing.secrecy import answers
from gametape.usecases.links import SEAT, Access
from gametape.usecases.record import Recording, new_game
from gametape.usecases.tables import _allow

ANN, BEN, CAT = 0, 1, 2


def _table(tmp_path: Path, players: list[str]) -> Recording:
    store = Store(tmp_path)
    gid, _ = new_game(store, "hanabi", players, table=True)
    return Recording(store, store.path(gid))


def _as(rec: Recording, seat: int, text: str) -> None:
    """``text`` sent from a seat's own page (checked against what that seat sees)."""
    name = rec.game.fold.players[seat]
    rec.move(text, name, _allow(Access(game="g", role=SEAT, seat=seat)), viewer=seat)


def _told(game: Game, seat: int) -> tuple[str, ...]:
    return game.ruleset.view(game.state, seat).notices


def test_ann_s_play_is_never_refused_for_a_note_and_her_answers_do_not_depend_on_it(tmp_path):
    """Whatever the note saw in ann's slot 1 (red 1, yellow 1, green 4), her play of it as
    yellow 1 is recorded, and every answer she gets at every position is byte for byte the
    same (her board, descriptions, legal moves, forms, completions, refusals, pages)."""
    worlds = []
    for noted in ("r1", "y1", "g4"):
        rec = _table(tmp_path / noted, ["ann", "ben"])
        rec.move(f"see ann {noted}")  # seq 1, a watcher's note
        _as(rec, ANN, "p1 y1")  # seq 2: ann plays her slot 1, which shows yellow 1
        game = rec.game
        assert game.state.fireworks[1] == 1
        said = [answers(game.ruleset, game.fold, k, ANN, rng_seed=k) for k in (1, 2)]
        gid = rec.path.stem  # each world is its own game, with its own id
        worlds.append([{what: v.replace(gid, "GAME") for what, v in a.items()} for a in said])
    assert worlds[0] == worlds[1] == worlds[2]


def test_a_contradicted_note_is_void_and_only_those_who_saw_it_are_told(tmp_path):
    rec = _table(tmp_path, ["ann", "ben", "cat"])
    rec.move("see ann r1")  # seq 1
    _as(rec, ANN, "p1 y1")  # seq 2
    told = _told(rec.game, BEN)
    assert told == _told(rec.game, CAT) and len(told) == 1
    assert "seq 2 showed it as yellow 1" in told[0] and "no longer counts" in told[0]
    assert _told(rec.game, ANN) == ()
    result = CliRunner().invoke(
        app, ["--store", str(rec.store.root), "validate", rec.path.stem, "--json"]
    )
    assert result.exit_code == 0, result.output
    notices = json.loads(result.stdout)["notices"]
    assert len(notices) == 1 and "the note at seq 1 saw ann's slot 1 as red 1" in str(notices)


def test_a_play_of_a_noted_card_still_says_its_face_in_the_same_words(tmp_path):
    """The note is not a fact: a play that names no face is refused as if nothing were
    noted, so the refusal tells ann nothing."""
    refusals = []
    for noted in ("see ann r1", None):
        rec = _table(tmp_path / str(noted), ["ann", "ben"])
        if noted:
            rec.move(noted)
        with pytest.raises(RuleViolation) as exc:
            rec.move("p1", "ann")
        refusals.append(exc.value.message.replace("seq 2", "seq 1"))
    assert refusals[0] == refusals[1] and "say which card it was" in refusals[0]


def test_a_clue_that_contradicts_a_note_voids_it(tmp_path):
    rec = _table(tmp_path, ["ann", "ben", "cat"])
    rec.move("see ann r1")  # seq 1: ann's slot 1 is a red 1, says a watcher
    _as(rec, ANN, "p1 b1")  # seq 2: ann's own play (the note was of slot 1: void already)
    rec.move("see ann ? g1")  # seq 3: her slot 2 is a green 1
    _as(rec, BEN, "c ann 2 2")  # seq 4: ben's rank-2 clue touches ann's slot 2
    state = rec.game.state
    assert all(face is None for face in state.noted)
    told = _told(rec.game, CAT)
    assert len(told) == 2 and "the 2 clue at seq 4 touched it" in told[1]


def test_notes_that_claim_more_copies_than_are_left_are_in_dispute(tmp_path):
    """Two notes of red 2 (the deck holds two) and a red 2 shown elsewhere: one note is
    wrong, and nobody knows which; cat, who saw both notes, is told."""
    rec = _table(tmp_path, ["ann", "ben", "cat"])
    rec.move("see ann r2")  # seq 1
    rec.move("see ben r2")  # seq 2
    _as(rec, ANN, "p2 r2")  # seq 3: ann misplays a red 2 from her slot 2
    told = _told(rec.game, CAT)
    assert len(told) == 1 and "in dispute" in told[0]
    assert _told(rec.game, ANN) == () and _told(rec.game, BEN) == ()
