"""Review rooms on a real `gametape serve` (#42): a leader's position followed by every page,
hypotheticals as ordinary branches, notes by several people, the lead handed on and taken,
and each page as its link's viewer may see it."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest

from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.events import Store
from tests.serving import GAMETAPE, Served


def _finished(store: Path, ruleset: str = "hanabi", seed: int = 3) -> str:
    """A finished game of ``ruleset`` played by bots, written to ``store``; its id."""
    rules = get_ruleset(ruleset)
    players = ["ann", "ben", "cat"][: max(rules.min_players, 2)]
    game = sim.play(rules, players, rules.default_bot or "random", random.Random(seed))
    return Store(store).create(game.events[0], game.events[1:])


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """A server (lead timeout 1 s) with one finished Hanabi game and its links."""
    store = tmp_path_factory.mktemp("review") / "store"
    gid = _finished(store)
    with Served(store, "--links", gid, "--lead-timeout", "1") as served:
        said = served.announced()
        yield served, said["game"], said["links"]


class Page:
    """One review page: its link and its own id."""

    def __init__(self, served: Served, link: str, name: str) -> None:
        self.served, self.link, self.base = served, link, served.path(link) + "/review"
        self.member = (name * 20)[:20]

    def state(self) -> dict:
        answer = self.served.client.get(self.base + "/state.json", params={"member": self.member})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def act(self, act: str, **fields: object) -> httpx.Response:
        data = {"member": self.member, **{k: str(v) for k, v in fields.items()}}
        return self.served.client.post(f"{self.base}/{act}", data=data)


def test_the_leader_is_followed_others_are_refused_and_a_late_joiner_starts_where_it_is(room):
    served, gid, links = room
    host, ann = Page(served, links["host"], "h"), Page(served, links["ann"], "a")
    page = served.client.get(host.base)
    assert page.status_code == 200 and 'id="room"' in page.text and "review.js" in page.text
    first = host.state()
    assert first["you_lead"] and first["game"] == gid
    assert ann.state()["leader"] == "the host" and not ann.state()["you_lead"]
    assert host.act("step", seq=4).status_code == 200
    assert ann.state()["seq"] == 4
    refused = ann.act("step", seq=2)
    assert refused.status_code == 403 and "the host leads" in refused.json()["error"]
    late = Page(served, links["spectator"], "s").state()
    assert late["seq"] == 4 and late["leader"] == "the host"
    assert host.act("step", seq=10_000).status_code == 400  # past the game's end


def test_a_follower_hears_the_leader(room):
    """A step by the leader reaches a follower's stream (how fast is bench/'s to say)."""
    served, _, links = room
    host, ben = Page(served, links["host"], "h"), Page(served, links["ben"], "b")
    host.state()
    heard: list[str] = []
    with served.client.stream("GET", ben.base + "/events", params={"member": ben.member}) as s:
        lines = s.iter_lines()
        assert next(lines).startswith("retry:")
        while not next(lines).startswith("data:"):
            pass
        assert host.act("step", seq=7).status_code == 200
        for line in lines:
            if line.startswith("data:"):
                heard.append(line)
                break
    assert heard
    assert ben.state()["seq"] == 7


def test_a_hypothetical_is_an_ordinary_branch_seats_enter_their_own_moves(room):
    served, gid, links = room
    host, ann, ben = (Page(served, links[w], w[0]) for w in ("host", "ann", "ben"))
    assert host.act("step", seq=5).status_code == 200
    assert host.act("branch").status_code == 200
    snap = ann.state()
    branch = snap["game"]
    assert branch != gid and snap["lines"] == [gid, branch] and snap["seq"] == 5
    assert ann.act("branch").status_code == 403  # only the leader branches
    for made in range(5):  # the leader enters some, each seat to act the others
        to_act = _to_act(served, branch)
        # the host sees the table only: it enters a play or discard (a clue's reach is seen
        # only by those who see the hand), the seat to act any of its moves
        by_host = made % 2 == 0
        mover = host if by_host else Page(served, links[to_act], to_act[0])
        answer = mover.act("move", text=_a_legal_move(served, branch, public=by_host))
        assert answer.status_code == 200, answer.text
    assert ann.state()["seq"] == 10 and ann.state()["last"] == 10
    # a seat enters only its own moves in the branch: another seat's is out of its turn
    who = _to_act(served, branch)
    other = next(w for w in ("ann", "ben", "cat") if w != who)
    wrong = Page(served, links[other], other[0]).act("move", text="play 1")
    assert wrong.status_code == 422 and f"{who}'s turn" in wrong.json()["error"]
    assert Page(served, links["spectator"], "s").act("move", text="play 1").status_code == 403
    log = subprocess.run(
        [GAMETAPE, "--store", str(served.store), "log", branch, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = [json.loads(line) for line in log.stdout.splitlines()]
    assert len([r for r in rows if r["seq"] > 5]) == 5
    back = host.act("step", game=gid, seq=5)
    assert back.status_code == 200 and ben.state()["game"] == gid


def _to_act(served: Served, game: str) -> str:
    from gametape.engine.game import Game
    from gametape.events import read_log

    g = Game.from_events(read_log(Store(served.store).path(game)).events)
    return g.players[g.ruleset.to_act(g.state)[0]]


def _a_legal_move(served: Served, game: str, public: bool = False) -> str:
    from gametape.engine.game import Game, notation
    from gametape.events import read_log

    g = Game.from_events(read_log(Store(served.store).path(game)).events)
    seat = g.ruleset.to_act(g.state)[0]
    moves = sorted(g.legal_moves(seat), key=repr)
    if public:
        moves = [m for m in moves if type(m).__name__ != "HanabiClue"]
    return notation(g.ruleset, g.state, moves[0])


def test_notes_from_two_people_appear_for_everyone_with_their_authors(room):
    served, gid, links = room
    host, ann, spectator = (Page(served, links[w], w[0]) for w in ("host", "ann", "spectator"))
    host.act("step", game=gid, seq=3)
    assert ann.act("note", seq=3, text="why <b>this</b>?", mark="?").status_code == 200
    assert spectator.act("note", seq=3, text="a fine clue").status_code == 200
    for page in (host, ann, spectator):
        notes = [(n["author"], n["text"]) for n in page.state()["notes"] if n["seq"] == 3]
        assert ("ann", "why <b>this</b>?") in notes and ("a spectator", "a fine clue") in notes
    listed = subprocess.run(
        [GAMETAPE, "--store", str(served.store), "notes", gid, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "why <b>this</b>?" in listed.stdout and "a fine clue" in listed.stdout
    assert ann.act("note", seq=3, text="").status_code == 400  # nothing said
    # a note on a card names it by its holder and place; a deck number is refused here
    assert ann.act("note", seq=3, text="the 5", card="ben 2").status_code == 200
    assert any(n["card"] == "ben 2" for n in host.state()["notes"])
    assert ann.act("note", seq=3, text="x", card="17").status_code == 400


def test_the_lead_is_handed_on_and_taken_once_the_leader_has_gone(room):
    served, _, links = room
    host, ann, ben = (Page(served, links[w], w[0]) for w in ("host", "ann", "ben"))
    numbers = {m["label"]: m["number"] for m in host.state()["members"]}
    if not host.state()["you_lead"]:  # an earlier test may have handed it on
        pytest.skip("the lead moved")
    assert host.act("hand", to=numbers["ann"]).status_code == 200
    assert ann.state()["you_lead"] and not host.state()["you_lead"]
    assert ben.act("take").status_code == 403  # ann is here (her page was heard just now)
    time.sleep(1.3)  # ann's page has no stream open: after the timeout the lead is free
    assert ben.state()["can_take"]
    assert ben.act("take").status_code == 200
    assert ben.state()["you_lead"] and ann.state()["leader"] == "ben"


def test_a_game_in_progress_is_opened_by_the_host_only(tmp_path):
    store = tmp_path / "store"
    from gametape.usecases.record import new_game

    gid, _ = new_game(Store(store), "hanabi", ["ann", "ben"], seed=1)
    with Served(store, "--links", gid) as served:
        links = served.announced()["links"]
        ann = Page(served, links["ann"], "a")
        answer = served.client.get(ann.base)
        assert answer.status_code == 403 and "host" in answer.text
        assert served.client.get(Page(served, links["host"], "h").base).status_code == 200
        assert served.client.get(ann.base).status_code == 200  # the host opened it


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/review/state.json", {"member": "short"}),
        ("/review/state.json", {"member": "<script>" * 4}),
        ("/review/step", {"member": "x" * 20, "seq": "１"}),
        ("/review/step", {"member": "x" * 20, "seq": "-1"}),
        ("/review/hand", {"member": "x" * 20, "to": "999"}),
        ("/review/fly", {"member": "x" * 20}),
        ("/review/move", {"member": "x" * 20, "text": "play 1"}),
    ],
)
def test_hostile_review_requests_are_refused_and_change_nothing(room, path, data):
    served, gid, links = room
    before = (Path(served.store) / f"{gid}.jsonl").read_bytes()
    base = served.path(links["spectator"])
    if path.endswith(".json"):
        answer = served.client.get(base + path, params=data)
    else:
        answer = served.client.post(base + path, data=data)
    assert 400 <= answer.status_code < 500 and "Traceback" not in answer.text
    assert (Path(served.store) / f"{gid}.jsonl").read_bytes() == before


def test_every_review_route_is_a_404_for_a_forged_token(room):
    served, gid, _ = room
    forged = f"/g/{gid}/{'A' * 22}/review"
    for route in ("", "/state.json?member=" + "m" * 20, "/events?member=" + "m" * 20):
        assert served.client.get(forged + route).status_code == 404
    assert served.client.post(forged + "/step", data={"member": "m" * 20}).status_code == 404


def test_many_pages_step_at_once_without_losing_the_room(room):
    """Twenty steps from the leader while pages read the snapshot: every answer is a
    snapshot of one version, and the last step wins."""
    served, gid, links = room
    leader = next(
        (Page(served, links[w], w[0]) for w in ("host", "ann", "ben", "cat", "spectator")
        if w in links and Page(served, links[w], w[0]).state()["you_lead"]),
        None,
    )  # fmt: skip
    if leader is None:  # the leader of the tests before was gone past the 1 s lead timeout (a
        # busy machine): the host's page takes the lead nobody holds
        leader = Page(served, links["host"], "h")
        assert leader.act("take").status_code == 200
    errors: list[str] = []

    # the reader's page comes by another link than the leader's: a new page of the leader's
    # own link, its old one streamless, takes the lead back (a reload), which is not this
    reading = next(w for w in ("spectator", "host") if w in links and links[w] != leader.link)

    def read() -> None:
        page = Page(served, links[reading], "z")
        for _ in range(20):
            snap = page.state()
            if not isinstance(snap["version"], int):
                errors.append(repr(snap))

    reader = threading.Thread(target=read)
    reader.start()
    for seq in range(1, 21):
        stepped = leader.act("step", game=gid, seq=seq)
        assert stepped.status_code == 200, (seq, leader.member, stepped.text)
    reader.join()
    assert not errors and leader.state()["seq"] == 20


def _review_answers(served: Served, gid: str, token: str, member: str) -> list[bytes]:
    base = f"/g/{gid}/{token}/review"
    got = [served.client.get(base).content]
    got.append(served.client.get(base + "/state.json", params={"member": member}).content)
    with served.client.stream("GET", base + "/events", params={"member": member}) as stream:
        got.append(next(stream.iter_bytes()))
    for act, data in (("step", {"seq": "1"}), ("move", {"text": "play 1"}), ("note", {})):
        answer = served.client.post(f"{base}/{act}", data={"member": member, **data})
        got.append(answer.content)
    return got


def test_a_card_a_seat_never_saw_changes_no_byte_of_its_review(tmp_path):
    """The same game but for a card in ann's hand: every answer the review gives ann, the
    host and a spectator is the same byte for byte; ben, who sees ann's hand, is told
    otherwise (the test can fail)."""
    from tests.test_serve import _hanabi_pair, _move

    a, b, gid, tokens_json, _ = _hanabi_pair(tmp_path)
    tokens = json.loads(tokens_json)
    with Served(a.root) as one, Served(b.root) as two:
        answers = {}
        for served in (one, two):
            assert _move(served, f"/g/{gid}/{tokens['ann']}", "clue ben 1").status_code == 303
            host = Page(served, f"{served.url}/g/{gid}/{tokens['host']}", "h")
            host.state()  # the host opens the room and leads it
            assert host.act("step", seq=0).status_code == 200
            answers[served] = {
                who: _review_answers(served, gid, tokens[who], (who[0] * 20)[:20])
                for who in ("ann", "host", "spectator", "ben")
            }
        for who in ("ann", "host", "spectator"):
            assert answers[one][who] == answers[two][who], who
        assert answers[one]["ben"] != answers[two]["ben"]


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_pages_gone_leave_the_room_and_a_leader_coming_back_keeps_the_lead(monkeypatch):
    """#49: "in the room" piled up "(away)" ghosts (16 after a few reloads, "the host (leads)
    (away)" among them), and a leader whose page came back as a new page lost the lead for
    a minute while the host's own page said "Following the host"."""
    from gametape.usecases import rooms
    from gametape.usecases.links import HOST, SEAT, Access

    clock = _Clock()
    monkeypatch.setattr(rooms, "time", clock)
    room = rooms.Room("g1", 10)
    host = Access(game="g1", role=HOST)
    ann = Access(game="g1", role=SEAT, seat=0)
    room.member("h" * 16, host, "the host")
    room.stream("h" * 16, True)
    for n in range(5):  # ann reloads five times: a page a time, each gone after
        room.member(f"ann{n}".ljust(16, "x"), ann, "ann")
        room.stream(f"ann{n}".ljust(16, "x"), True)
        room.stream(f"ann{n}".ljust(16, "x"), False)
        clock.now += 1
    clock.now += rooms.AWAY + 1
    room.tick()
    shown = room.snapshot("h" * 16, 10, [])
    assert [m.label for m in shown.members] == ["the host"], shown.members
    # the host reloads: its old page's stream is closed, and a new page of its link comes
    room.stream("h" * 16, False)
    room.member("H" * 16, host, "the host")
    again = room.snapshot("H" * 16, 10, [])
    assert again.you_lead and again.leader == "the host"
    room.step("H" * 16, "g1", 3, 10)  # and leads at once, not a minute later
    assert room.seq == 3
    # another link's page never takes a lead whose page is merely gone for a moment
    room.stream("H" * 16, False)
    room.member("a" * 16, ann, "ann")
    assert not room.snapshot("a" * 16, 10, []).you_lead


def test_each_page_names_the_others_in_its_own_language(room):
    """#52: a page is named to each reader in the reader's language: the host's and a
    spectator's page by their role (the Persian page reads «یک تماشاگر»), a seat by its
    name; so is the leader in a refusal."""
    served, _, links = room
    Page(served, links["host"], "l").state()
    ben = Page(served, links["ben"], "b")
    spectator = Page(served, links["spectator"], "p")
    assert spectator.state()["you"] == "a spectator"  # in English, as it always read
    fa = {"Accept-Language": "fa"}
    said = served.client.get(ben.base + "/state.json", params={"member": ben.member}, headers=fa)
    state = said.json()
    assert said.status_code == 200 and state["you"] == "ben", state
    labels = {m["label"] for m in state["members"]}
    assert {"یک تماشاگر", "میزبان", "ben"} <= labels and "the host" not in labels, labels
    leader = state["leader"]  # whoever leads after the tests before, named in Persian
    assert leader != "a spectator" and leader not in ("the host", None), state
    refused = served.client.post(
        spectator.base + "/step", data={"member": spectator.member, "seq": "1"}, headers=fa
    )
    error = refused.json()["error"]
    assert refused.status_code == 403 and leader in error and "leads" not in error, error
