"""The reader's language (#52): gettext catalogues per domain, chosen as gettext chooses.

gametape's own words (``core.``, ``web.``, ``cli.``) and each game's (its own domain, its
catalogues beside its module) are complete in Persian and Hungarian.
"""

from __future__ import annotations

import gettext
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from babel.messages.pofile import read_po

from gametape import catalogues, extraction, i18n
from gametape.messages import Words, count_of, names, render, say, seat_of, term
from tests.test_messages import CATALOGUE

PERCENT = re.compile(r"%\((\w+)\)s")


def _po(domain: str, lang: str):
    _, locale = catalogues.domains()[domain]
    with (locale / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
        return read_po(source, locale=lang, domain=domain)


@pytest.mark.parametrize(
    ("explicit", "environ", "chosen"),
    [
        ("hu", {"LANG": "fa_IR.UTF-8"}, "hu"),
        (None, {"LANG": "fa_IR.UTF-8"}, "fa"),
        (None, {"LANGUAGE": "de:hu", "LANG": "fa_IR.UTF-8"}, "hu"),  # a list, in order
        (None, {"LC_ALL": "C", "LANG": "hu_HU.UTF-8"}, "en"),  # LC_ALL decides first
        (None, {"LC_MESSAGES": "hu_HU", "LANG": "fa"}, "hu"),
        (None, {}, "en"),
        ("FA", {}, "fa"),
    ],
)
def test_the_language_is_chosen_as_gettext_chooses(explicit, environ, chosen):
    assert i18n.language(explicit, environ) == chosen


@pytest.mark.parametrize("bad", ["xx", "", "../../etc", "h" * 500, "hu\x00"])
def test_a_language_gametape_does_not_speak_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="gametape speaks en, fa, hu"):
        i18n.language(bad)


def test_a_browser_s_languages_are_read_by_preference():
    assert i18n.accepted("fa-IR,fa;q=0.9,en;q=0.8") == "fa"
    assert i18n.accepted("de-DE, hu;q=0.5, en;q=0.4") == "hu"
    assert i18n.accepted("en;q=0.1, hu;q=0.9") == "hu"
    assert i18n.accepted("de, fr") == i18n.accepted("") == i18n.accepted(";q=x,,") == "en"


@pytest.mark.parametrize("domain", list(catalogues.domains()))
@pytest.mark.parametrize("lang", ["fa", "hu"])
def test_each_catalogue_holds_what_its_code_says_and_keeps_every_placeholder(domain, lang):
    """`python -m gametape.extraction` would add or drop nothing (the extraction finds no
    new message), no entry is fuzzy, and a translation names exactly its text's
    parameters."""
    catalog, found = _po(domain, lang), extraction.extract(domain)
    ids = {(m.context, m.id) for m in catalog if m.id}
    assert ids == {(m.context, m.id) for m in found if m.id}, "run python -m gametape.extraction"
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.context
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        source = message.id[0] if isinstance(message.id, tuple) else message.id
        for text in texts:
            if text and message.context is None:  # a page's words: gettext's %(name)s
                assert sorted(PERCENT.findall(text)) == sorted(PERCENT.findall(source)), text
            elif text:
                assert names(text) == names(source), (message.context, text)


# Every domain, translated whole: gametape's own words, and each game's.
COMPLETE = {d: (d,) for d in catalogues.domains()} | {catalogues.DOMAIN: ("core", "web", "cli")}


@pytest.mark.parametrize("domain", list(COMPLETE))
@pytest.mark.parametrize("lang", ["fa", "hu"])
def test_the_complete_domains_are_all_translated(domain, lang):
    catalog = _po(domain, lang)
    untranslated = [m.context for m in catalog if m.id and not all(m.string or ())]
    assert untranslated == []
    said = {m.id for m in CATALOGUE if m.id.split(".")[0] in COMPLETE[domain]}
    assert said <= {m.context for m in catalog if m.id}


def test_a_message_renders_in_the_reader_s_language_with_its_digits():
    turn = say("core.not-your-turn", "it is {acting}'s turn, not {mover}'s",
               acting=seat_of(["ann", "ben"], 0), mover=seat_of(["ann", "ben"], 1))  # fmt: skip
    assert render(turn) == "it is ann's turn, not ben's"
    assert render(turn, i18n.words("hu")) == "ann következik, nem ben"
    assert render(turn, i18n.words("fa")) == "نوبت ann است، نه ben"  # a terminal's
    # a page's: each name isolated, as <bdi> would, so it reads whole in a Persian sentence
    isolated = render(turn, i18n.words("fa", page=True))
    assert isolated == "نوبت \u2068ann\u2069 است، نه \u2068ben\u2069"
    assert render(turn, i18n.words("hu", page=True)) == "ann következik, nem ben"
    long = say(
        "core.move-too-long",
        "a move is at most {most} characters; this one has {length:,}",
        most=300,
        length=12345,
    )
    assert render(long, i18n.words("fa")).endswith("۱۲٬۳۴۵ دارد")  # CLDR: Persian groups with ٬
    assert "۳۰۰" in render(long, i18n.words("fa"))
    assert render(long, i18n.words("hu")) == "egy lépés legfeljebb 300 karakter; ez 12\u00a0345"
    assert render(count_of(3, "card"), i18n.words("fa")) == "۳ کارت"
    assert render(count_of(3, "card"), i18n.words("hu")) == "3 lap"
    assert render(count_of(3, "card")) == "3 cards"
    face = say("hanabi.face", "{suit} {rank}", suit=term("hanabi.suit", "green"), rank=3)
    assert render(face, i18n.words("fa")) == "سبز ۳"
    assert render(face, i18n.words("hu")) == "zöld 3"
    assert render(term("hanabi.suit", "Dark Rainbow"), i18n.words("hu")) == "Dark Rainbow"
    assert isinstance(i18n.words("en"), Words) and i18n.words("en") is i18n.words("en")


def _gametape(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gametape.cli.app", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", **(env or {})},
    )


def test_the_cli_says_a_refusal_in_the_language_chosen(tmp_path):
    store = str(tmp_path / "store")
    made = _gametape("--store", store, "new", "hanabi", "-p", "ann,ben", "--seed", "1")
    assert made.returncode == 0, made.stderr
    gid = next((tmp_path / "store").glob("*.jsonl")).stem
    before = (tmp_path / "store" / f"{gid}.jsonl").read_bytes()
    hu = _gametape("--store", store, "move", gid, "p1", "--by", "ben", "--lang", "hu")
    assert hu.returncode == 1 and "ann következik, nem ben" in hu.stderr, hu.stderr
    fa = _gametape("--store", store, "move", gid, "p1", "--by", "ben", env={"LANG": "fa_IR"})
    assert fa.returncode == 1 and "نوبت ann است، نه ben" in fa.stderr, fa.stderr
    en = _gametape("--store", store, "move", gid, "p1", "--by", "ben")
    assert "it is ann's turn, not ben's" in en.stderr
    shown = _gametape("--store", store, "--lang=fa", "show", gid)
    assert shown.returncode == 0 and "شمارهٔ ۰/۰" in shown.stdout, shown.stdout
    listed = _gametape("--store", store, "--lang", "hu", "validate", gid)
    assert listed.returncode == 0 and "folyamatban" in listed.stdout, listed.stdout
    assert "1 játék: 0 befejezett, 1 folyamatban, 0 érvénytelen" in listed.stdout
    replayed = _gametape("--store", store, "--lang", "fa", "replay", gid, "--at", "0")
    assert replayed.returncode == 0 and "چیدمان آغاز" in replayed.stdout, replayed.stdout
    page = tmp_path / "fa.html"
    exported = _gametape(
        "--store", store, "--lang", "fa", "export", gid, "--format", "html", "-o", str(page)
    )
    assert exported.returncode == 0, exported.stderr
    html = page.read_text()
    assert '<html lang="fa" dir="rtl">' in html and "حرکت‌ها" in html  # its own words too
    for bad in ("xx", "", "--store"):
        refused = _gametape("--store", store, "--lang", bad, "show", gid)
        assert refused.returncode == 2 and "gametape speaks en, fa, hu" in refused.stderr
        assert "Traceback" not in refused.stderr
    assert (tmp_path / "store" / f"{gid}.jsonl").read_bytes() == before  # nothing recorded


def _parts(param) -> list:
    """Every message and game word inside a description, nested ones included."""
    from gametape.messages import Many, Message, Term

    if isinstance(param, Message):
        return [param, *(p for value in param.params.values() for p in _parts(value))]
    if isinstance(param, Many):
        return [p for item in param.items for p in _parts(item)]
    return [param] if isinstance(param, Term) else []


@pytest.mark.parametrize("name", sorted(catalogues.domains().keys() - {catalogues.DOMAIN}))
@pytest.mark.parametrize("lang", ["fa", "hu"])
def test_what_a_game_says_is_found_in_its_catalogue_at_run_time(name, lang):
    """Each message and game word of a bot game's descriptions, as each seat is told them,
    is found translated in the catalogue its id names (the game's domain, or gametape's):
    a domain looked up wrong would read in English."""
    import random

    from gametape.engine import simulate as sim
    from gametape.engine.game import describe
    from gametape.engine.registry import get_ruleset
    from gametape.messages import Term

    rules = get_ruleset(name)
    words = catalogues.Catalogued(lang)
    n = max(rules.min_players, min(3, rules.max_players))
    game = sim.play(rules, sim.default_players(n), "random", random.Random(1), seed=1)
    missing, checked = set(), 0
    for k in range(1, len(game.events)):
        for seat in (None, 0):
            states = game.fold.states
            said = describe(rules, game.players, states[k - 1], game.events[k], states[k], seat)
            for part in _parts(said):
                kind, text = (
                    (part.kind, part.text) if isinstance(part, Term) else (part.id, part.text)
                )
                if text.isdigit() or kind.endswith(".variant"):
                    continue  # a number; a hanab.live variant's name is its own
                checked += 1
                if f"{kind}\x04{text}" not in words._catalogue(kind)._catalog:
                    missing.add((kind, text))
    # each kind of event a replay jumps between (``clue to {player}`` for ``clue to ann``),
    # each option's help and each report's title
    for k in range(1, len(game.events)):
        before, event, after = game.fold.states[k - 1], game.events[k], game.fold.states[k]
        for kind in rules.kinds(before, event, after):
            named = next((p for p in game.players if kind.endswith(" " + p)), None)
            text = kind if named is None else kind.removesuffix(named) + "{player}"
            if f"{name}.kind\x04{text}" not in words._catalogue(name)._catalog:
                missing.add((f"{name}.kind", text))
    said = [o.help for o in rules.options] + [title for title, _ in rules.reports]
    for message in said:  # (a plug-in may give plain text; the five games give messages)
        if f"{message.id}\x04{message.text}" not in words._catalogue(message.id)._catalog:
            missing.add((message.id, message.text))
    assert checked and not missing, sorted(missing)


@pytest.mark.parametrize("domain", sorted(catalogues.domains()))
@pytest.mark.parametrize("lang", ["fa", "hu"])
def test_a_compiled_catalogue_says_what_gettext_says_from_its_source(domain, lang, tmp_path):
    """The compiled catalogue (MessagePack, read in C) answers every message, plural form
    and count as gettext answers from the ``.mo`` Babel compiles of the same ``.po``; one
    older than its ``.po`` is not read, nor one that is not a catalogue."""
    import io
    import os

    from babel.messages.mofile import write_mo

    catalog = _po(domain, lang)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    gnu = gettext.GNUTranslations(mo)
    del gnu._catalog[""]  # the header, which gettext reads for itself
    _, locale = catalogues.domains()[domain]
    source = locale / lang / "LC_MESSAGES" / f"{domain}.po"
    folder = tmp_path / "locale"
    where = folder / lang / "LC_MESSAGES"
    where.mkdir(parents=True)
    (where / source.name).write_bytes(source.read_bytes())
    assert catalogues.compile_all([folder]) == 1  # as a plug-in's locale folder is compiled
    compiled = where / f"{domain}{catalogues.COMPILED}"
    ours = catalogues.load(folder, domain, lang)
    assert isinstance(ours, catalogues.Translations)
    assert ours._catalog == gnu._catalog  # every text, every plural form, by the same keys
    assert [ours.plural(n) for n in range(200)] == [gnu.plural(n) for n in range(200)]
    for message in list(catalog)[1:]:
        if isinstance(message.id, tuple):
            for n in (0, 1, 2, 5, 21):
                said = ours.npgettext(message.context, *message.id, n)
                assert said == gnu.npgettext(message.context, *message.id, n)
        else:
            assert ours.pgettext(message.context, message.id) == gnu.pgettext(
                message.context, message.id
            )
    catalogues.load.cache_clear()
    compiled.write_bytes(b"\x00 not a catalogue")
    assert catalogues.load(folder, domain, lang)._catalog == gnu._catalog  # the source's
    catalogues.load.cache_clear()
    compiled.write_bytes(msgspec.msgpack.encode(catalogues.Catalogue("0", {}, {})))
    os.utime(compiled, (1, 1))  # older than its source: the source is read
    assert catalogues.load(folder, domain, lang)._catalog == gnu._catalog
    catalogues.load.cache_clear()


@pytest.mark.parametrize("lang", ["en", "fa", "hu"])
def test_each_language_writes_numbers_in_cldr_s_digits(lang):
    """The digits, decimal sign and group separator kept in gametape.catalogues are those
    of CLDR's default numbering system for the language, as Babel knows it; a message's
    numbers are written with them (#52: Persian 2٫5, Hungarian 2,5)."""
    from babel import Locale

    locale = Locale.parse(lang)
    system = locale.default_numbering_system
    digits = {"latn": "0123456789", "arabext": "۰۱۲۳۴۵۶۷۸۹", "arab": "٠١٢٣٤٥٦٧٨٩"}[system]
    symbols = locale.number_symbols[system]
    kept = catalogues.NUMBERS.get(lang, ("0123456789", ".", ","))
    assert kept == (digits, symbols["decimal"], symbols["group"])
    if lang != "en":
        said = render(say("core.x", "{n:,} and {f}", n=12345, f=2.5), i18n.words(lang))
        assert said == f"{digits[1:3]}{kept[2]}{digits[3:6]} and {digits[2]}{kept[1]}{digits[5]}"


def test_stats_reads_in_the_language_chosen(tmp_path):
    """#52: `gametape stats` in Hungarian and Persian: the reports' titles, each column by
    the game's word or gametape's, an outcome in the game's words, numbers in the digits."""
    store = str(tmp_path / "store")
    for game in ("hanabi", "hanamikoji-classic"):
        made = _gametape("--store", store, "simulate", game, "--games", "3", "--seed", "2")
        assert made.returncode == 0, made.stderr
    hu = _gametape("--store", store, "--lang", "hu", "stats")
    assert hu.returncode == 0, hu.stderr
    said = ["pontszám játékosszám szerint", "kimenetelek", "hibás kijátszások érték szerint"]
    said += ["kritikus eldobások", "átl. fordulók", "győzelem", "a forduló első akciója"]
    assert [s for s in said if s not in hu.stdout] == [], hu.stdout
    fa = _gametape("--store", store, "--lang", "fa", "stats", "hanabi")
    assert fa.returncode == 0 and "امتیاز بر پایهٔ شمار بازیکنان" in fa.stdout, fa.stdout
    assert "کارایی" in fa.stdout and "۳" in fa.stdout
    en = _gametape("--store", store, "stats", "hanabi", "--json")
    titles = [r["title"] for r in json.loads(en.stdout)["reports"]]
    assert titles[0] == "misplays by rank"  # the data: English, and its message's id


# Words of English sentences that no name, notation or data of the tour holds
ENGLISH = {
    "the", "of", "and", "to", "is", "in", "for", "on", "this", "that", "with", "by", "from",
    "your", "you", "not", "or", "at", "its", "be", "are", "can", "will", "each", "every",
    "what", "who", "when", "wrote", "new", "next", "first", "last", "row", "rows", "games",
    "outcomes", "mean", "score", "turn", "seq", "moves", "shown", "recorded", "result",
}  # fmt: skip


# a word: letters between neither letters nor digits (a game's random id, ab2or3cd, holds none)
WORD = re.compile(r"(?<![a-z0-9_-])[a-z]+(?![a-z0-9_-])")


def test_the_readme_tour_in_the_pseudo_language_is_all_from_catalogues(tmp_path):
    """#52: the README tour's commands in the pseudo-language (``--lang qps``: catalogue
    text accented and longer, what a person typed marked ⟦…⟧) print no English: new, show,
    move, log, replay, simulate, validate, stats, players, query, export and import."""
    from typer.testing import CliRunner

    from gametape.cli.app import app

    runner = CliRunner()
    store = ["--lang", "qps", "--store", str(tmp_path / "store")]
    made = runner.invoke(
        app, [*store, "new", "hanabi", "--players", "alice,bob,cara", "--seed", "7"]
    )
    gid = made.stdout.split()[0]
    tour = [
        ["show", gid, "--as", "alice"],
        ["move", gid, "clue bob 1"],
        ["move", gid, "discard 1"],
        ["move", gid, "discard 1"],
        ["log", gid],
        ["replay", gid, "--at", "2"],
        ["simulate", "hanabi", "--games", "5", "--players", "3", "--seed", "1"],
        ["validate"],
        ["stats", "hanabi"],
        ["players", "alice"],
        ["query", "SELECT player_count, round(avg(score), 1) AS avg FROM games GROUP BY ALL"],
        ["export", "--parquet", str(tmp_path / "out")],
        ["import", "hanablive", str(Path(__file__).parents[1] / "examples" / "hanablive")],
        ["export", gid, "--format", "hanablive", "-o", str(tmp_path / "game.json")],
        ["export", gid, "--format", "html", "--as", "bob", "-o", str(tmp_path / "game.html")],
    ]
    said = {"new": made.stdout + made.stderr}
    for args in tour:
        done = runner.invoke(app, [*store, *args])
        refused = " ".join(args) in said  # the second discard, refused as in the README
        assert done.exit_code == (1 if refused else 0), (args, done.stdout, done.stderr)
        said[" ".join(args)] = done.stdout + done.stderr
    left = {
        command: line
        for command, text in said.items()
        for line in text.splitlines()
        if ENGLISH & set(WORD.findall(re.sub(r"⟦[^⟧]*⟧", "", line).lower()))
    }
    assert not left, left


def _console(*args: str) -> subprocess.CompletedProcess[str]:
    """``gametape ARGS`` as its console script runs it (typer names it so in a usage line)."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "gametape"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "COLUMNS": "100"},
    )


def _command_lines() -> list[list[str]]:
    from gametape.cli.app import COMMANDS

    return [[], *([c] for c in COMMANDS), ["store", "init"], ["store", "copy"]]


def _english_left(text: str) -> set[str]:
    """The English words of ``text`` once what a person typed (⟦…⟧) and the commands' own
    names (``gametape new``; a row of a help's Commands panel) and metavariables (``SEQ``,
    as a usage line writes a parameter) are taken out."""
    text = re.sub(r"gametape(?: [a-z]+)*", "", re.sub(r"⟦[^⟧]*⟧", "", text))
    text = re.sub(r"(?m)^│\s+[a-z]+|\b[A-Z]{2,}\b", "", text)
    return ENGLISH & set(WORD.findall(text.lower()))


def test_every_commands_help_is_in_the_readers_language():
    """#52: ``--help`` of gametape and of every command reads in the pseudo-language with no
    English word left (the help texts, typer's panels, ``Usage:``, ``[default: …]``), and in
    Persian and Hungarian in their own words."""
    for line in _command_lines():
        done = _console("--lang", "qps", *line, "--help")
        assert done.returncode == 0 and done.stderr == "", (line, done.stderr)
        assert not _english_left(done.stdout), (line, _english_left(done.stdout), done.stdout)
    fa = _console("--lang", "fa", "show", "--help")
    assert "کاربرد: gametape show" in fa.stdout and "گزینه‌ها" in fa.stdout, fa.stdout
    assert "وضعیت یک بازی را نشان بده" in fa.stdout and "Show" not in fa.stdout
    hu = _console("--lang", "hu", "--help")
    assert "Használat: gametape" in hu.stdout and "Parancsok" in hu.stdout, hu.stdout
    assert "Egy lépés rögzítése" in hu.stdout  # a command's line of help, in the list
    en = _console("--help")
    assert en.stdout.startswith("Usage: gametape") and "Record one move" in en.stdout


# A wrong command line of each kind typer's click refuses, and what is left of it in English
WRONG = [
    (["show"], "Missing argument"),
    (["list", "--jsn"], "No such option"),
    (["show", "g", "--at", "x"], "whole number"),
    (["list", "--json=3"], "flag"),
    (["show", "a", "b"], "extra argument"),
    (["shwo"], "No such command"),
    (["store", "bogus"], "No such command"),
    (["export", "g", "--format", "html", "--as"], "needs one"),
]


@pytest.mark.parametrize(("line", "english"), WRONG, ids=[" ".join(w[0]) for w in WRONG])
def test_a_wrong_command_line_is_refused_in_the_readers_language(line, english):
    """#52: typer's usage errors (its bundled click writes them as English f-strings) are
    said again as messages: in English as before, in the pseudo-language with no English
    word, in Persian in Persian; exit status 2, no traceback."""
    en = _console(*line)
    assert en.returncode == 2 and english in en.stderr, en.stderr
    qps = _console("--lang", "qps", *line)
    assert qps.returncode == 2 and "Traceback" not in qps.stderr
    assert english not in qps.stderr and not _english_left(qps.stderr), qps.stderr
    fa = _console("--lang", "fa", *line)
    assert fa.returncode == 2 and "خطا" in fa.stderr and english not in fa.stderr, fa.stderr


def test_typers_own_words_are_all_in_the_catalogue():
    """What typer says through gettext (Babel finds it in typer's code) is every word
    ``helpwords`` gives the catalogue, and each of typer.rich_utils' words is one it has."""
    import typer.rich_utils
    from babel.messages.extract import extract_from_dir

    from gametape.cli import helpwords

    found = extract_from_dir(
        str(Path(typer.__file__).parent),
        method_map=[("**.py", "python")],
        keywords={"_": None},
    )
    said = {message for _, _, message, _, _ in found}
    assert said == {*helpwords.CORE_WORDS, *helpwords.RICH_WORDS.values()} - {
        "Try '{command_path} {help_option}' for help."  # said here without rich's [blue]
    } | {"Try [blue]'{command_path} {help_option}'[/] for help."}
    assert all(hasattr(typer.rich_utils, name) for name in helpwords.RICH_WORDS)


def test_the_other_commands_and_their_refusals_in_the_pseudo_language(tmp_path):
    """#52: the commands outside the README tour, and what each refuses, print no English in
    the pseudo-language: record (a piped game, a refused line), note, notes, branch, games,
    index, repair, store init, players merge and unmerge, and the usual mistakes (no such
    game, seq, note, bot, format or option; a move id, an option, a mark that is wrong)."""
    from typer.testing import CliRunner

    from gametape.cli.app import app

    runner = CliRunner()
    store = ["--lang", "qps", "--store", str(tmp_path / "store")]
    made = runner.invoke(app, [*store, "new", "hanabi", "-p", "ann,ben,cat", "--seed", "3"])
    gid = made.stdout.split()[0].strip("⟦⟧")
    table = runner.invoke(app, [*store, "new", "hanabi", "-p", "ann,ben", "--table"])
    tid = table.stdout.split()[0].strip("⟦⟧")
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["a", "b"], "deck": [], "actions": [], "options": {}}')
    lines = [
        (["record", tid], "c ben r 1\nbogus\n"),
        (["move", gid, "play 1"], None),
        (["move", gid, "clue ann red"], None),
        (["move", gid, "undo"], None),
        (["note", gid, "1", "nice", "--mark", "!"], None),
        (["note", gid, "2", "nice", "--mark", "!"], None),  # taken back: refused
        (["notes", gid], None),
        (["note", gid, "--retract", "1"], None),
        (["note", gid, "--retract", "7"], None),
        (["note", gid, "99", "x"], None),
        (["note", gid, "1", "x", "--mark", "?!?"], None),
        (["branch", gid, "--at", "1"], None),
        (["branch", gid, "--at", "1", "--as", "ben"], None),
        (["branch", gid, "--at", "999"], None),
        (["log", gid], None),
        (["replay", gid, "--all"], None),
        (["show", gid, "--at", "99"], None),
        (["show", "zzzz"], None),
        (["move", gid, "fly away"], None),
        (["move", gid, "play 1", "--id", "x"], None),
        (["games", "hanabi"], None),
        (["games", "nope"], None),
        (["index"], None),
        (["repair", gid], None),
        (["store", "init"], None),
        (["simulate", "hanabi", "--games", "3", "--bot", "nobody"], None),
        (["simulate", "hanabi", "--games", "3", "--seed", "2"], None),
        (["players", "alice", "-f", "html", "-o", str(tmp_path / "alice.html")], None),
        (["new", "hanabi", "-p", "a"], None),
        (["new", "hanabi", "-p", "a,b", "-o", "zz"], None),
        (["query", "DELETE FROM games"], None),
        (["query", "SELECT 1", "--format", "bogus"], None),
        (["players", "merge", "x"], None),
        (["players", "merge", "Ann B", "ann"], None),
        (["players", "unmerge", "ann"], None),
        (["players", "nobody"], None),
        (["export", gid, "--format", "bogus"], None),
        (["import", "bogus", "x"], None),
        (["import", "hanablive", str(bad)], None),
    ]
    said = {}
    for args, given in lines:
        done = runner.invoke(app, [*store, *args], input=given)
        assert "Traceback" not in done.stdout + done.stderr, (args, done.stderr)
        said[" ".join(args)] = done.stdout + done.stderr
    page = (tmp_path / "alice.html").read_text()  # the players page: its words, not its style
    said["players page"] = re.sub(r"<style>.*?</style>|<[^>]+>", "\n", page, flags=re.S)
    assert '<html lang="qps">' in page
    left = {
        command: line
        for command, text in said.items()
        for line in text.splitlines()
        if _english_left(line)
    }
    assert not left, left


def test_where_a_problem_is_reads_in_the_readers_language():
    """#52: ``file:line, seq N, byte B`` is said in the reader's words and list separator;
    the path stays as it is."""
    from gametape.errors import Problem
    from gametape.messages import use

    problem = Problem(kind="SeqError", message="…", file="/s/g.jsonl", line=2, seq=5, offset=9)
    assert problem.where() == "/s/g.jsonl:2, seq 5, byte 9"
    try:
        use(i18n.words("fa"))
        assert problem.where() == "/s/g.jsonl:2، شمارهٔ ۵، بایت ۹"
    finally:
        use(i18n.words("en"))
