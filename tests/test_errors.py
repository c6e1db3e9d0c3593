"""One error hierarchy: each error knows its exit code and location; the CLI catches only it."""

from __future__ import annotations

import pickle

from typer.testing import CliRunner

from gametape.analytics.model import ModelBusy, QueryError
from gametape.cli.app import app
from gametape.engine.fold import IllegalEvent
from gametape.engine.ruleset import NotationError, OptionError, RuleViolation
from gametape.errors import GametapeError, UnknownGame, UsageError
from gametape.events.base import Abandon
from gametape.events.errors import ChainBroken, GameNotFound, LogError
from gametape.interop.formats import ImportRefused
from gametape.messages import At, say
from gametape.replay import OutOfRange
from tests.helpers import hanabi


def test_every_error_has_one_root_and_an_exit_code():
    for cls in (
        LogError,
        GameNotFound,
        RuleViolation,
        NotationError,
        OptionError,
        IllegalEvent,
        QueryError,
        ModelBusy,
        ImportRefused,
        UsageError,
        UnknownGame,
        OutOfRange,
    ):
        assert issubclass(cls, GametapeError), cls
    assert {
        GameNotFound.exit_code,
        UnknownGame.exit_code,
        OptionError.exit_code,
        OutOfRange.exit_code,
    } == {2}
    assert {LogError.exit_code, RuleViolation.exit_code, IllegalEvent.exit_code} == {1}


def test_the_location_is_formatted_in_one_place():
    exc = LogError("bad line", path="/s/g.jsonl", line=3, seq=2, offset=120)
    assert str(exc) == "/s/g.jsonl:3, seq 2, byte 120: bad line"


def _forged(store, event):
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    gid = store.create(g.setup, [event])
    return gid


def test_a_shared_event_naming_a_seat_that_does_not_exist_is_invalid(store):
    runner = CliRunner()
    for seat in (99, -1):
        gid = _forged(store, Abandon(player=seat))
        base = ["--store", str(store.root)]
        result = runner.invoke(app, [*base, "validate", gid])
        assert result.exit_code == 1 and f"no player at seat {seat}" in result.stdout
        # the score sheet lists the log up to the bad event, marking it (exit 0); the others
        # stop at it: the data is invalid (exit 1)
        expected = {"log": 0, "replay": 1, "show": 1, "move": 1}
        for cmd in (["log", gid], ["replay", gid, "--all"], ["show", gid], ["move", gid, "undo"]):
            result = runner.invoke(app, [*base, *cmd])
            assert not isinstance(result.exception, Exception) or isinstance(
                result.exception, SystemExit
            ), (cmd, result.exception)
            assert result.exit_code == expected[cmd[0]], (cmd, result.output)
        # one damaged log, one exit code: show and replay agree
        codes = {
            runner.invoke(app, [*base, *c]).exit_code
            for c in (["show", gid], ["replay", gid, "--all"], ["move", gid, "undo"])
        }
        assert codes == {1}


def test_a_bug_is_not_dressed_up_as_a_usage_error(store, monkeypatch):
    gid = _forged(store, Abandon(player=None))

    def broken(*_args, **_kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr("gametape.usecases.record.open_game", broken)
    result = CliRunner().invoke(app, ["--store", str(store.root), "move", gid, "undo"])
    assert isinstance(result.exception, KeyError)  # a traceback, not "error: 'a bug'"


def test_an_error_crosses_a_process_boundary_whole():
    """Workers (parallel validation, export) raise errors the main process shows as is."""
    for error in (
        GametapeError("x", path="/a/b", line=3, hint="do this"),
        UsageError("no player 'cara'"),
        RuleViolation(
            say("t.out-of-turn", "out of turn since seq {at}", at=At(1)),
            say("t.rule", "players act in seat order"),
        ),
        ChainBroken("hash chain broken", path="g.jsonl", line=2, seq=1, offset=9),
    ):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert back.exit_code == error.exit_code and back.__dict__ == error.__dict__
