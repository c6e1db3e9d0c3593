"""A page in its reader's language (#52), on a real `gametape serve`: the link's `?lang=`
(remembered for that link alone), else the browser's, else the server's `--lang`; Persian
right to left. What a page records never depends on the language it is read in."""

from __future__ import annotations

import re

import pytest

from tests.serving import Served, start_game

DIR = re.compile(r'<html lang="(\w+)" dir="(\w+)">')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Served(tmp_path_factory.mktemp("lang") / "store") as served:
        yield served


def _page(server: Served, link: str, **headers: str):
    return server.client.get(server.path(link), headers=headers)


def test_a_page_follows_its_link_then_its_browser_then_the_server(server):
    said = start_game(server, "hanabi", "ann, ben")
    ann = said["links"]["ann"]
    plain = _page(server, ann)
    assert DIR.search(plain.text).groups() == ("en", "ltr")
    assert "ann to act" in plain.text and "your moves" in plain.text
    persian = _page(server, ann, **{"accept-language": "fa-IR,fa;q=0.9,en;q=0.5"})
    assert DIR.search(persian.text).groups() == ("fa", "rtl")
    assert "بازی با \u2068ann\u2069" in persian.text and "حرکت‌های شما" in persian.text
    assert "set-cookie" not in persian.headers  # the browser's choice is not remembered
    asked = server.client.get(server.path(ann) + "?lang=hu")
    assert DIR.search(asked.text).groups() == ("hu", "ltr")
    assert "ann következik" in asked.text and "a lépéseid" in asked.text
    cookie = asked.headers["set-cookie"]
    assert f"Path={server.path(ann)};" in cookie and "lang=hu" in cookie  # this link alone
    # the link remembers, over the browser's language, on every part of the page
    remembered = {"cookie": "lang=hu", "accept-language": "fa"}
    assert DIR.search(_page(server, ann, **remembered).text).groups() == ("hu", "ltr")
    live = server.client.get(server.path(ann) + "/live", headers=remembered)
    assert "ann következik" in live.text
    # a switch to each other language, and the JSON the same in every language
    assert 'href="?lang=fa"' in asked.text and 'href="?lang=en"' in asked.text
    states = [
        server.client.get(server.path(ann) + "/state.json", headers={"accept-language": lang})
        for lang in ("en", "hu")
    ]
    assert states[0].json()["seq"] == states[1].json()["seq"]


@pytest.mark.parametrize(
    "asked",
    ["xx", "", "fa%00", "../hu", "h" * 300, "<script>", "%F0%9F%98%80", "zz-IR-x-y-z-w"],
)
def test_a_language_the_server_does_not_speak_is_ignored(server, asked):
    said = start_game(server, "hanabi", "ann, ben")
    ann = said["links"]["ann"]
    answer = server.client.get(server.path(ann) + "?lang=" + asked)
    assert answer.status_code == 200 and "set-cookie" not in answer.headers
    assert DIR.search(answer.text).groups() == ("en", "ltr")
    forged = _page(server, ann, cookie="lang=" + asked.replace(";", ""))
    assert forged.status_code == 200 and DIR.search(forged.text).groups() == ("en", "ltr")
    header = _page(server, ann, **{"accept-language": asked or ","})
    assert header.status_code == 200 and DIR.search(header.text).groups() == ("en", "ltr")


def test_a_refusal_is_said_in_the_page_s_language_and_records_nothing(server):
    said = start_game(server, "hanabi", "ann, ben")
    ben = said["links"]["ben"]
    answer = server.client.post(
        server.path(ben) + "/move?lang=fa",
        data={"seq": "1", "text": "p1"},
    )
    assert answer.status_code == 422, answer.text[:500]
    assert "نوبت \u2068ann\u2069 است، نه \u2068ben\u2069" in answer.text
    assert DIR.search(answer.text).groups() == ("fa", "rtl")
    state = server.client.get(server.path(ben) + "/state.json").json()
    assert state["seq"] == 1  # nothing recorded


def test_the_server_s_own_language_is_its_pages_default(tmp_path):
    with Served(tmp_path / "store", "--lang", "fa") as served:
        said = start_game(served, "hanabi", "ann, ben")
        page = _page(served, said["links"]["ann"])
        assert DIR.search(page.text).groups() == ("fa", "rtl")
        english = _page(served, said["links"]["ann"], **{"accept-language": "en"})
        assert DIR.search(english.text).groups() == ("en", "ltr")
