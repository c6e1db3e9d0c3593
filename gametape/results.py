"""How a game ended, in words: its outcome in the game's own words, and the scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gametape.messages import Term, count_of, many, render, say


def result_line(players: Sequence[str], result: Any, game: str) -> str:
    """``normal, 19 points`` for a team, ``win: ben 13, ann 6`` (highest first) when each
    seat has its own score; the outcome in ``game``'s words, all in the reader's language."""
    scores, outcome = result.scores, Term(f"{game}.outcome", result.outcome)
    if len(set(scores)) == 1 and not result.winners:
        if not scores:
            return render(say("core.result-none", "{outcome}, no score", outcome=outcome))
        points = count_of(scores[0], "point")
        return render(
            say("core.result-team", "{outcome}, {points}", outcome=outcome, points=points)
        )
    ranked = sorted(zip(players, scores, strict=False), key=lambda p: -p[1])
    each = many((say("core.name-score", "{name} {score}", name=n, score=s) for n, s in ranked))
    return render(say("core.result", "{outcome}: {each}", outcome=outcome, each=each))
