"""Every page of every game passes axe-core's accessibility check (WCAG 2 AA: contrast,
labels, names of controls), run inside Debian's Chromium on a real `gametape serve`, at a
phone's width and a desktop's (#36)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from gametape.engine.registry import names
from tests.serving import Served, start_game

RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Served(tmp_path_factory.mktemp("a11y") / "store") as served:
        yield served


def _violations(page, axe_script) -> list[str]:
    page.add_script_tag(path=str(axe_script))
    found = page.evaluate(
        """(rules) => axe.run(document, {runOnly: {type: "tag", values: rules}}).then((r) =>
            r.violations.map((v) => v.id + " (" + v.impact + "): " + v.help + " — " +
              v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))""",
        RULES,
    )
    return list(found)


TAPPABLE = (
    "form button, form select, form input:not([type=hidden]):not([type=checkbox]), label.check"
)


def _small_targets(page) -> list[str]:
    """Controls on the page smaller than a finger's 44 × 44 px (a checkbox counts by its
    label, which a tap on anywhere ticks)."""
    small = []
    for control in page.locator(TAPPABLE).all():
        box = control.bounding_box()
        if box is None:  # not shown
            continue
        if box["height"] < 44 or box["width"] < 44:
            said = (control.get_attribute("aria-label") or control.inner_text() or "")[:30]
            small.append(f"{said!r} {box['width']:.0f}×{box['height']:.0f}")
    return small


def _every_page(server) -> Iterator[tuple[str, bool, str, str]]:
    """Each game's pages, dealt and at a table: (game, at a table, which page, its URL)."""
    for ruleset in sorted(names()):
        for table in (False, True):
            links = start_game(server, ruleset, "ann, ben", table=table)["links"]
            yield from (
                (ruleset, table, what, url)
                for what, url in {
                    "ann's page": links["ann"],
                    "the host's page": links["host"],
                    "the spectator's page": links["spectator"],
                    "the links page": links["host"] + "/links",
                    "the replay": links["ann"] + "/replay",
                    "the review room": links["host"] + "/review",
                }.items()
            )


@pytest.mark.parametrize("width", [390, 1200])
def test_every_page_of_every_game_has_no_accessibility_violation(
    browser, server, axe_script, width
):
    """Every kind of page of every game, dealt and at a table, at a phone's width and a
    desktop's: no axe violation, and on a seat's page no control smaller than 44 px (#49).
    The pages of a game at a table are read in Persian (right to left) at a phone's width
    and in Hungarian at a desktop's (#52: axe checks their lang; each has its dir, and
    nothing is wider than the screen, though a translation is longer than its English)."""
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:
        page.goto(server.url + "/")
        problems["the front page"] = _violations(page, axe_script)
        for ruleset, table, what, url in _every_page(server):
            dealt = "at a table" if table else "dealt"
            lang = ("fa" if width == 390 else "hu") if table else "en"
            asked = f"{url}?lang={lang}" if lang != "en" else url
            page.goto(asked)
            if asked != url:
                assert page.locator(f'html[lang="{lang}"]').count() == 1, asked
                wide = page.evaluate("document.documentElement.scrollWidth > innerWidth")
                assert (
                    page.evaluate("document.documentElement.dir")
                    == ("rtl" if lang == "fa" else "ltr")
                    and not wide
                ), (asked, wide)
            if "review" in url:
                page.locator("body[data-room-version]").wait_for(timeout=30_000)
            found = _violations(page, axe_script)
            if what in ("ann's page", "the host's page", "the review room"):
                found += [f"a tap target under 44 px: {t}" for t in _small_targets(page)]
            problems[f"{ruleset} {dealt} ({lang}): {what}"] = found
    finally:
        context.close()
    found = {k: v for k, v in problems.items() if v}
    assert not found, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in found.items())


# Words of English sentences and labels that no game's notation, name or code holds: one of
# them left on a page in the pseudo-language is English that came from no catalogue.
ENGLISH = {
    "the", "of", "and", "to", "is", "in", "for", "on", "this", "that", "with", "by", "from",
    "your", "you", "not", "no", "or", "at", "its", "be", "are", "can", "will", "each", "every",
    "what", "who", "when", "page", "links", "host", "spectator", "review", "replay", "result",
    "send", "undo", "options", "language", "new", "start", "players", "seat", "game", "moves",
}  # fmt: skip
# A word: letters between neither letters nor digits (a link's random token, 1oR9…, holds
# none); a URL is taken out first (its token may hold -or- as well)
WORD = re.compile(r"(?<![a-z0-9_-])[a-z]+(?![a-z0-9_-])")
URL = re.compile(r"https?://\S+")
SHOWN = r"""() => {
  const said = [document.title];
  const skip = new Set(["SCRIPT", "STYLE", "CODE", "KBD", "TEMPLATE"]);
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    let e = n.parentElement;
    while (e && !skip.has(e.tagName)) e = e.parentElement;
    if (!e) said.push(n.textContent);
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder]"))
    for (const a of ["aria-label", "title", "placeholder"]) said.push(e.getAttribute(a) || "");
  return said;
}"""


def _english(page) -> list[str]:
    """What the page shows (its text, title and labels) with an English word in it, once
    what a person typed (⟦…⟧ in the pseudo-language) is taken out."""
    left = []
    for text in page.evaluate(SHOWN):
        plain = re.sub(r"⟦[^⟧]*⟧", "", text)
        if ENGLISH & set(WORD.findall(URL.sub("", plain).lower())):
            left.append(" ".join(text.split())[:100])
    return sorted(set(left))


def test_every_page_in_the_pseudo_language_is_from_catalogues_and_fits_a_phone(browser, server):
    """#52: every page of every game, dealt and at a table, in the pseudo-language
    (``?lang=qps``: each catalogue text accented and 40% longer, what a person typed
    marked): no English left on the page (text, title, labels, what the scripts write: the
    review room's lines, the replay's), and nothing wider than a 390 px phone."""
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:

        def look(what: str, url: str) -> None:
            page.goto(url + "?lang=qps")
            if "/review" in url:
                page.locator("#room-status:not(:empty)").wait_for(timeout=30_000)
            found = _english(page)
            if page.evaluate("document.documentElement.scrollWidth > innerWidth"):
                found.append(
                    f"wider than 390 px: {page.evaluate('document.documentElement.scrollWidth')}"
                )
            problems[what] = found

        look("the front page", server.url + "/")
        for ruleset, table, what, url in _every_page(server):
            look(f"{ruleset} {'at a table' if table else 'dealt'}: {what}", url)
        look("a link that is not one", server.url + "/g/nosuchgame/" + "x" * 22)
    finally:
        context.close()
    found = {k: v for k, v in problems.items() if v}
    assert not found, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in found.items())
