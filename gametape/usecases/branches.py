"""Branches: "what if" games that start from another game's state (docs/review.md).

A branch is a game of its own, in the same store, whose log begins as its parent's did: the
parent's setup (with ``meta`` naming the parent, ``branch_of``; the seq it forks at,
``branch_at``; and the chain hash of the parent's line at that seq, ``branch_hash``) and the
parent's events up to that seq, copied. From
there it goes on with any legal moves, recorded as any game's. Chance stays honest by
construction: the setup is the parent's, so cards still in the deck are drawn in the
parent's order (hanab.live's rule for hypotheticals), and a game dealt at a table keeps its
unknown cards unknown. The hash in the setup ties the branch to the parent's log as it was:
``validate`` reports a branch whose parent is missing or was changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from gametape.engine.game import Game
from gametape.engine.registry import ruleset_for
from gametape.engine.validate import validate
from gametape.errors import GametapeError, Problem, UsageError
from gametape.events.base import Event, Setup
from gametape.events.log import LogRead, Source, read_log
from gametape.events.postgres import PgGame
from gametape.events.store import SUFFIX, GameStore
from gametape.messages import say
from gametape.usecases.record import BRANCH_AS, viewing_seat


def fork_of(setup: Any) -> dict[str, Any] | None:
    """A branch's ``{"of", "at", "hash"}`` (from its setup's meta), or None for a game that
    is no branch."""
    meta = getattr(setup, "meta", None) or {}
    if "branch_of" not in meta:
        return None
    return {
        "of": meta["branch_of"],
        "at": meta.get("branch_at"),
        "hash": meta.get("branch_hash"),
        "as": meta.get(BRANCH_AS),
    }


def branch(store: GameStore, ref: str, at: int, as_player: str | None = None) -> tuple[str, Game]:
    """Make a branch of the game ``ref`` from its state after seq ``at``; return its id and
    the game as it starts. With ``as_player``, the branch is that seat's hypothesis: it is
    only ever shown as that seat saw it, so the cards the seat could not see stay hidden
    (hanab.live's hidden-hand hypotheticals); the cards are still the real game's. Refused,
    with nothing written: a seq the game does not have, an unknown player, and a game that
    does not validate (a branch of it would carry its fault)."""
    log = store.resolve(ref)
    read = read_log(log, data=store.raw(log))
    report = validate(read)[0]  # and a branch is checked against its own parent
    problem = report.problem if report.status == "invalid" else branch_problem(read)
    if problem is not None:
        raise GametapeError(
            say("core.branch-invalid", "{game} does not validate ({problem}): a branch of it "
                "would carry that", game=log.stem, problem=str(problem)),
            hint=say("core.branch-invalid-hint", "`gametape validate {game}` says what is wrong",
                     game=log.stem),
        )  # fmt: skip
    last = len(read.records) - 1
    if not 0 <= at <= last:
        raise UsageError(say("core.branch-no-seq", "no seq {seq} to branch from in {game}: it has "
                             "seqs 0-{last} (0: from the deal)", seq=at, game=log.stem,
                             last=last))  # fmt: skip
    setup = read.events[0]
    assert isinstance(setup, Setup)  # a valid game starts with its setup
    fork: dict[str, str | int] = {
        "branch_of": log.stem,
        "branch_at": at,
        "branch_hash": read.records[at].hash,
    }
    events = read.events[1 : at + 1]
    meta = {**setup.meta, **fork}
    if as_player is not None:
        parent = Game.from_events(read.events[:1])
        seat = viewing_seat(parent, as_player)
        assert seat is not None
        seen = seen_by(read.events[: at + 1], seat)
        assert isinstance(seen[0], Setup)
        setup, events = seen[0], seen[1:]
        meta = {k: v for k, v in meta.items() if k != "seed"}  # the seed would deal the deck
        meta[BRANCH_AS] = parent.players[seat]
    forked = msgspec.structs.replace(setup, meta=meta)
    game = Game.from_events([forked, *events])
    gid = store.create(forked, events)
    return gid, game


def seen_by(events: Sequence[Event], seat: int) -> list[Event]:
    """The game ``events`` hold as ``seat`` saw it, recorded as at a table (the game's
    ``hypothesis``): a seat's hypothesis starts from it. UsageError if the game has none."""
    rules = ruleset_for(events[0])
    seen = rules.hypothesis(events, seat)
    if seen is None:
        raise UsageError(say("core.no-hypothesis", "{game} cannot start a seat's hypothesis: it "
                             "has no record of a game as one seat saw it (make the branch "
                             "without --as)", game=rules.name))  # fmt: skip
    return seen


def parent_log(log: Path | Source, of: str) -> Path | Source:
    """Where a branch's parent is: beside it, in the same store."""
    if isinstance(log, PgGame):
        return log.store.path(of)
    assert isinstance(log, Path)
    return log.with_name(f"{of}{SUFFIX}")


def branch_problem(read: LogRead) -> Problem | None:
    """What is wrong with a branch's tie to its parent, if anything: the parent missing, its
    event at the fork changed (the hash differs), or the branch's first events not the
    parent's. None for a game that is no branch, or a sound one."""
    setup = read.records[0].event if read.records else None
    fork = fork_of(setup)
    if fork is None:
        return None
    of, at, made = fork.get("of"), fork.get("at"), fork.get("hash")
    file = str(read.path)
    if not isinstance(of, str) or not isinstance(at, int) or not isinstance(made, str):
        return Problem(
            kind="BranchBroken",
            message="meta needs branch_of, branch_at and branch_hash",
            file=file,
            line=1,
            seq=0,
        )
    try:
        parent = read_log(parent_log(read.path, of))
    except GametapeError:
        parent = None
    if parent is None or not parent.records:
        return Problem(
            kind="ParentMissing",
            message=f"a branch of {of} at seq {at}, but {of} is not in the store",
            file=file,
            line=1,
            seq=0,
        )
    if len(parent.records) <= at or parent.records[at].hash != made:
        return Problem(
            kind="ParentChanged",
            message=f"its parent {of} changed: the event at seq {at} is not the one this "
            "branch was made from (its chain hash differs)",
            file=file,
            line=1,
            seq=0,
        )
    mine, theirs = read.events[1 : at + 1], parent.events[1 : at + 1]
    name = fork.get("as")
    first = parent.events[0]
    if isinstance(name, str) and isinstance(first, Setup) and name in first.players:
        try:  # a seat's hypothesis starts as the parent did as that seat saw it
            seen = seen_by(parent.events[: at + 1], first.players.index(name))
        except GametapeError:
            seen = [first]
        mine, theirs = read.events[1 : len(seen)], seen[1:]
        at = len(seen) - 1
    for seq, (a, b) in enumerate(zip(mine, theirs, strict=False), start=1):
        if a != b:
            return Problem(
                kind="ForkDiffers",
                message=f"seq {seq} is not its parent's (a branch starts as {of} did, "
                f"up to seq {at})",
                file=str(read.path),
                line=seq + 1,
                seq=seq,
            )
    if len(mine) < at:
        return Problem(
            kind="ForkDiffers",
            message=f"it ends before its fork at seq {at}",
            file=str(read.path),
            line=len(mine) + 1,
            seq=len(mine),
        )
    return None


def branch_tree(store: GameStore) -> dict[str, list[dict[str, Any]]]:
    """Every game's branches, by the game they were made from: each one's id, fork seq and
    number of events, by fork then id (each game's setup line read; a branch's whole log)."""
    tree: dict[str, list[dict[str, Any]]] = {}
    for gid, first in store.setup_lines().items():
        if b'"branch_of"' not in first:  # only a branch's setup names one
            continue
        try:
            read = read_log(store.path(gid), verify=False)
        except GametapeError:
            continue
        fork = fork_of(read.events[0]) if read.events else None
        if fork and isinstance(fork.get("of"), str):
            made = {"game": gid, "at": fork.get("at"), "events": len(read.records)}
            tree.setdefault(fork["of"], []).append(made)
    for lines in tree.values():
        lines.sort(key=lambda b: (b["at"], b["game"]))
    return tree


def branches_of(store: GameStore, log: Path | Source) -> list[dict[str, Any]]:
    """The branches made from one game (see ``branch_tree``)."""
    return branch_tree(store).get(log.stem, [])
