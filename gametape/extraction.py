"""The catalogues kept up to the code: ``python -m gametape.extraction`` writes each
domain's messages as Babel finds them in its code (as ``pybabel extract`` would), with the
words no call names literally (a list's "and", the columns of ``gametape stats``, every
``--help`` text and typer's own words), and brings each language's ``.po`` up to them (as
``pybabel update`` would). A tool for whoever changes the code; nothing reads it at run time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gametape.catalogues import DOMAIN, domains
from gametape.languages import LANGUAGES

# How the messages are found in the code, as ``pybabel extract -k`` reads keywords: a
# message's id is its context (``say("core.not-your-turn", "it is {acting}'s turn, …")``).
KEYWORDS = {
    "say": ((1, "c"), 2),
    "term": ((1, "c"), 2),
    "Term": ((1, "c"), 2),
    "script": ((1, "c"), 2),  # a page script's words (gametape.pagewords)
}
# Words every language needs that no call names literally: a list's "and" and "or", the
# noun of a count, the unit of turns, a game's status and the columns of `gametape stats`.
CORE_WORDS = (("core.word", "and"), ("core.word", "or"), ("core.word", ", "), ("core.word", "; "))
COUNTS = (
    ("card", "cards"),
    ("point", "points"),
    ("branch", "branches"),
    ("move", "moves"),
    ("row", "rows"),
    ("legal move", "legal moves"),
    ("kind of move", "kinds of move"),
    ("name", "names"),
    ("notice", "notices"),
    ("note", "notes"),
    ("game", "games"),
    ("event", "events"),
    ("line", "lines"),
)
COLUMNS = (
    "players", "player_count", "score", "games", "outcome", "name", "wins", "avg_score",
    "avg_events", "avg_turns", "avg_rounds", "avg_steps", "avg_team_score", "best_team_score",
    "game", "W-D-L", "streak", "rating", "mean", "last game", "mean score", "total", "bots",
    "moves", "options", "note", "seq", "by", "mark", "card", "text", "won", "drawn", "lost",
    "best win streak", "scores",
)  # fmt: skip
CORE_TERMS = (
    *(("core.turn-word", w) for w in ("turn", "round", "step")),
    *(("core.status", s) for s in ("finished", "in progress", "invalid", "abandoned")),
    *(("core.column", c) for c in COLUMNS),
    *(
        ("core.copy-outcome", o)
        for o in ("copied", "copied invalid", "already there", "skipped", "refused")
    ),
)


def extract(domain: str) -> Any:
    """The domain's messages as Babel finds them in its code (a ``Catalog``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    code, _ = domains()[domain]
    catalog = Catalog(domain=domain, project="gametape", msgid_bugs_address="", fuzzy=False)

    # a message's domain is its id's prefix: a game that says one of gametape's own
    # (core.only-holder-enters) finds its words in gametape's
    own = domain if domain != DOMAIN else None

    def _prefix(context: str | None) -> str | None:
        prefix = (context or "").split(".", 1)[0]
        return None if prefix in ("core", "web", "cli") else prefix

    def ours(path: str) -> bool:  # gametape's own domain leaves the games to theirs
        return domain != DOMAIN or Path(path).parts[0] != "games"

    found = extract_from_dir(
        str(code),
        # the pages' own words (gettext in the templates: jinja2.ext.i18n) are gametape's
        method_map=[
            ("**.py", "python"),
            ("web/templates/**.html", "jinja2"),
            ("replay/**.html", "jinja2"),
        ],
        options_map={
            page: {"trim_blocks": "true", "lstrip_blocks": "true"}
            for page in ("web/templates/**.html", "replay/**.html")
        },
        keywords={**KEYWORDS, "_": None, "gettext": None},
        comment_tags=(),
        strip_comment_tags=True,
    )
    for path, line, message, _, context in found:
        if not ours(path) or not isinstance(message, str):
            continue
        if path.endswith(".html") or (_prefix(context) == own and context):
            catalog.add(message, locations=[(path, line)], context=context)
    if domain == DOMAIN:
        for context, message in (*CORE_WORDS, *CORE_TERMS):
            catalog.add(message, context=context)
        for count in COUNTS:
            catalog.add(count, context="core.count")
        from gametape.cli.app import build
        from gametape.cli.helpwords import catalogued  # typer's help and its words

        for context, message in catalogued(build()):  # --help's texts and typer's words
            catalog.add(message, context=context)
    return catalog


def update() -> list[Path]:
    """Write each domain's template (``.pot``) from its code and bring each language's
    ``.po`` up to it (new messages untranslated, gone ones dropped): the files changed."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    written = []
    for domain, (_, locale) in domains().items():
        template = extract(domain)
        for lang in sorted(set(LANGUAGES) - {"en"}):
            po = locale / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.exists():
                with po.open("rb") as source:
                    catalog = read_po(source, locale=lang, domain=domain)
            else:
                catalog = Catalog(locale=lang, domain=domain, project="gametape", fuzzy=False)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            po.parent.mkdir(parents=True, exist_ok=True)
            with po.open("wb") as target:
                write_po(target, catalog, omit_header=False, sort_output=True, width=100,
                         no_location=True)  # fmt: skip
            written.append(po)
    return written


if __name__ == "__main__":
    print(f"updated {len(update())} catalogues from the code")
