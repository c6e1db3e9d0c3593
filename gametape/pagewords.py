"""The words the pages' scripts write (replay.js, review.js, seat.js), in the reader's
language: each page carries them as JSON (``<script id="words">``), and a script fills their
``{name}`` placeholders, writing numbers in the language's digits and isolating names."""

from __future__ import annotations

from typing import Any

import msgspec

from gametape.messages import Message, Param, current


def script(id: str, text: str) -> tuple[str, str]:
    """A script's message: its id and its English text, ``{name}`` for what the script
    fills in (gametape.catalogues extracts these calls as it does ``say``)."""
    return id, text


# The HTML replay (gametape/replay/replay.js)
REPLAY = (
    script("web.js-setup", "the setup"),
    script("web.js-moved", "{player} moved"),
    script("web.js-hidden-event", "a hidden event"),
    script("web.js-face-down", "a face-down card"),
    script("web.js-touched", "clue"),  # the badge of a card the last clue touched
    script("web.js-face-down-note", "a face-down card: {note}"),
    script("web.js-position", "seq {seq}/{last}, {unit} {turn}"),
    script("web.js-no-later", "no later event of kind “{kind}”"),
    script("web.js-no-earlier", "no earlier event of kind “{kind}”"),
    script("web.js-main-line", "back to the main line"),
    script("web.js-branch-of", "↳ a branch of {game} from seq {seq} (what if) · "),
    script(
        "web.js-everyone-later",
        "Everyone's review of a game recorded at a table: every card whose face the game "
        "showed later is shown from the moment it entered play (faces learned later are shown).",
    ),
    script("web.js-everyone", "Everyone's view: every card is shown, hidden ones included."),
    script(
        "web.js-seat-file",
        "{seat}'s view: this file holds only what {seat} could see at each step.",
    ),
    script("web.js-seat-view", "as {seat}: only what {seat} could see at each step"),
    script("web.js-everyone-option", "everyone (every card)"),
    script("web.js-result", "Result — {result}"),
    script("web.js-stops", "The replay stops here: {problem}"),
    script("web.js-undone", " ↶ taken back at {seq}"),
    script("web.js-undone-title", "taken back at seq {seq}"),
    script("web.js-what-if", "what if: {game} · moves: {moves}"),
    script(
        "web.js-branch-title", "a branch from seq {seq} (its own page, exported beside this one)"
    ),
)
# A review room (gametape/web/static/review.js)
REVIEW = (
    script("web.js-joining", "joining the review…"),
    script("web.js-follow", "follow"),
    script("web.js-follow-leader", "follow {leader}"),
    script("web.js-take", "take the lead"),
    script("web.js-hand-to", "hand the lead to"),
    script("web.js-hand", "hand the lead on"),
    script("web.js-branch", "what if: branch here"),
    script("web.js-lines", "line of play"),
    script("web.js-branch-move", "a move in the branch"),
    script("web.js-move-example", "a move, as in the game: {example}"),
    script("web.js-move-plain", "a move, as in the game"),
    script("web.js-record-branch", "record in the branch"),
    script("web.js-notes", "notes on this move"),
    script("web.js-note-text", "a note on this move"),
    script("web.js-mark", "a mark"),
    script("web.js-no-mark", "no mark"),
    script("web.js-note-card", "on a card (its holder and place)"),
    script("web.js-note-card-example", "on a card: ann 3"),
    script("web.js-note", "note"),
    script("web.js-refused", "refused ({status})"),
    script("web.js-not-sent", "offline: not sent"),
    script("web.js-at-main", "seq {seq}"),
    script("web.js-at-branch", "branch {game}, seq {seq}"),
    script("web.js-you-lead", "You lead the review ({you}): every page follows you; {where}"),
    script("web.js-nobody-leads", "Nobody leads the review: take the lead"),
    script("web.js-following", "Following {leader}: {where}"),
    script("web.js-on-your-own", "On your own at seq {seq}; {leader} is at {where}"),
    script("web.js-away", "{member} (away)"),
    script("web.js-leads", "{member} (leads)"),
    script("web.js-the-game", "the game {game}"),
    script("web.js-what-if-line", "what if {game}"),
    script("web.js-in-room", "In the room: {members}"),
    script("web.js-on-card", "{note} on {card}"),
    script("web.js-not-open", "the review is not open"),
)
# A link's page (gametape/web/static/seat.js)
SEAT = (
    script("web.js-tick-one", "tick one at least: {what}"),
    script("web.js-no-longer", "no longer offered: {choices} (Send will be refused)"),
    script("web.js-reconnecting", "offline: reconnecting… (what you see may be behind)"),
    script("web.js-queued", "offline: “{move}” will be sent when the network is back"),
    script("web.js-not-recorded", "“{move}” was not recorded: {why}"),
)
ALL = (*REPLAY, *REVIEW, *SEAT)
TEXTS = dict(ALL)


def script_message(id: str, **params: Param) -> Message:
    """One script message with its parameters, said where a script is not (the CLI's replay
    heads its frames as the replay page does), from the same text."""
    return Message(id, TEXTS[id], params)


def script_word(id: str) -> str:
    """One script message's text in the reader's language (a page drawn on the server
    says it too: the badge of a touched card)."""
    return current().text(id, TEXTS[id])


def script_words() -> dict[str, str | list[str]]:
    """Each script message's text in the reader's language, by id; ``digits`` is how it
    writes 0-9 and a decimal point, ``list`` what separates the items of a list and
    ``typed`` what goes before and after a name (a right-to-left page's isolates)."""
    words = current()
    said: dict[str, str | list[str]] = {id: words.text(id, text) for id, text in ALL}
    said["digits"] = words.digits("0123456789.")
    said["list"] = words.word(", ")
    said["typed"] = words.typed("\x00").split("\x00")
    return said


def as_json() -> str:
    """``script_words`` as JSON that can sit inside a ``<script>`` element."""
    return in_script(script_words())


def in_script(data: Any) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element: ``<``, ``>`` and ``&``
    occur only in its strings, where ``\\u`` escapes mean the same, so no text can close the
    element."""
    return (
        msgspec.json.encode(data)
        .decode()
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
