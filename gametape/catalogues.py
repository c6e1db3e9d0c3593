"""The words of a language from GNU gettext catalogues, and the catalogues kept up to the code.

A message (``gametape.messages``) is an id, an English text and typed parameters; here its
words come from a catalogue of the reader's language, looked up by its id as the context
(``pgettext(id, text)``). Each game is its own domain, its catalogues in a ``locale`` folder
beside its module (``hanabi/locale/hu/LC_MESSAGES/hanabi.po``), so a plug-in ships its own
words; gametape's own (``core.``, ``web.``) are in ``gametape/locale``. A compiled catalogue
(``<domain>.msgpack`` beside the ``.po``: its translations as one MessagePack map, which
msgspec reads in C) is read when it is at least as new as its ``.po`` (``make`` compiles
them: ``python -m gametape.catalogues compile``); otherwise the ``.po`` itself, through
Babel. (A GNU ``.mo`` is parsed entry by entry in Python by ``gettext``: 5 ms of a 150 ms
start in Persian.) Numbers are written in the language's own digits where CLDR says so
(Persian: ۰-۹). ``python -m gametape.extraction`` brings every ``.po`` up to the code.
"""

from __future__ import annotations

import gettext
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from gametape.languages import RTL
from gametape.messages import Pseudo, Words

HOME = Path(__file__).parent / "locale"  # gametape's own domain
DOMAIN = "gametape"
# How each language writes a number, where it is not as Python does: the digits of CLDR's
# default numbering system for it (Persian: arabext, ۰-۹), its decimal sign and its group
# separator (Hungarian: 2,5 and 1 000). Kept here, not read from Babel's CLDR data at each
# start (that costs 40 ms); a test holds them to Babel's.
NUMBERS = {"fa": ("۰۱۲۳۴۵۶۷۸۹", "٫", "٬"), "hu": ("0123456789", ",", "\u00a0")}


class Catalogued(Words):
    """A language's words, from the gettext catalogues of gametape and of each game."""

    def __init__(self, lang: str, isolate: bool = False) -> None:
        self.lang = lang
        self.isolate = isolate and lang in RTL  # a page's: a terminal lays out no direction
        self._domains: dict[str, Any] = {}
        digits, decimal, group = NUMBERS.get(lang, ("0123456789", ".", ","))
        self._digits = str.maketrans("0123456789.,", digits + decimal + group)

    def _catalogue(self, id: str) -> Any:
        prefix = id.split(".", 1)[0]
        found = self._domains.get(prefix)
        if found is None:
            folder, domain = _home(prefix)
            found = self._domains[prefix] = load(folder, domain, self.lang)
        return found

    def text(self, id: str, text: str) -> str:
        said: str = self._catalogue(id).pgettext(id, text)
        return said

    def term(self, kind: str, text: str) -> str:
        if text.isdigit():  # a rank, a row: a number
            return self.digits(text)
        said: str = self._catalogue(kind).pgettext(kind, text)
        return said

    def word(self, text: str) -> str:
        said: str = self._catalogue("core").pgettext("core.word", text)
        return said

    def count(self, n: int, one: str, other: str) -> str:
        said: str = self._catalogue("core").npgettext("core.count", one, other, n)
        return said

    def typed(self, text: str) -> str:
        """A name or notation, isolated in a right-to-left language (Unicode's first-strong
        isolate: what ``<bdi>`` is to a page), so ``ann`` or ``r3`` reads whole and in place
        inside a Persian sentence."""
        return f"\u2068{text}\u2069" if self.isolate else text

    def digits(self, text: str) -> str:
        return text.translate(self._digits)


class PseudoCatalogue(gettext.NullTranslations):
    """The pseudo-language's catalogue for page templates: every text accented and padded
    (``messages.Pseudo``), its ``%(name)s`` placeholders kept."""

    def gettext(self, message: str) -> str:
        return Pseudo().template(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return Pseudo().template(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


def _home(prefix: str) -> tuple[Path, str]:
    """The locale folder and domain of a message's id prefix: gametape's for its own, else
    the game's (a ``locale`` folder beside the module of the plug-in that says it)."""
    from gametape import plugins

    module = plugins.module_of(prefix)
    if module is None:
        return HOME, DOMAIN
    return Path(module).parent / "locale", prefix


@cache
def load(folder: Path, domain: str, lang: str) -> gettext.NullTranslations:
    """The translations of ``domain`` in ``lang`` from ``folder`` (NullTranslations if it
    has none): the compiled catalogue if it is as new as its source, else the source. Read
    once (the prefixes core., cli. and web. share gametape's)."""
    where = folder / lang / "LC_MESSAGES"
    po, compiled = where / f"{domain}.po", where / f"{domain}{COMPILED}"
    try:
        if not po.exists() or compiled.stat().st_mtime >= po.stat().st_mtime:
            return Translations(_decode(compiled.read_bytes()))
    except (OSError, msgspec.DecodeError):
        pass  # none compiled, or not readable: the source is
    if po.exists():
        return Translations(_catalogue_of(po))
    return gettext.NullTranslations()


COMPILED = ".msgpack"


class Catalogue(msgspec.Struct, frozen=True):
    """A catalogue as compiled: its plural rule (a C expression of ``n``, as gettext
    takes it), its texts by key (the context, the character 4, then the text, as gettext
    keys them) and its plural texts by key, one for each plural form."""

    plural: str
    texts: dict[str, str]
    plurals: dict[str, list[str]]


_decode = msgspec.msgpack.Decoder(Catalogue).decode


class Translations(gettext.GNUTranslations):
    """gettext's translations of a catalogue read whole: what ``gettext.GNUTranslations``
    builds from a ``.mo`` (its ``_catalog`` and ``plural``), built from the map at once."""

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__()  # no file: nothing is parsed
        texts: dict[Any, str] = dict(catalogue.texts)
        for key, forms in catalogue.plurals.items():
            texts.update(((key, i), form) for i, form in enumerate(forms))
        self._catalog = texts
        self._charset = "utf-8"
        self.plural = gettext.c2py(catalogue.plural)


def _catalogue_of(po: Path) -> Catalogue:
    """The catalogue source ``po`` (``<lang>/LC_MESSAGES/<domain>.po``) as compiled: each
    translated message (not a fuzzy one), as ``msgfmt`` and Babel's ``.mo`` take them (a
    plural form left empty says the English one)."""
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
    texts: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for message in list(catalog)[1:]:  # the first is the header
        if not message.string or message.fuzzy:
            continue
        prefix = f"{message.context}\x04" if message.context else ""
        if isinstance(message.id, str):
            texts[prefix + message.id] = str(message.string)
            continue
        forms = [
            form or message.id[min(i, 1)] for i, form in enumerate(message.string)
        ]  # an empty form says the English
        plurals[prefix + message.id[0]] = forms
    return Catalogue(plural=catalog.plural_expr, texts=texts, plurals=plurals)


def compile_all(locales: Sequence[Path] = ()) -> int:
    """Compile each ``.po`` of gametape and its built-in games (``make`` runs this at
    install), or of the ``locale`` folders given (a plug-in's), beside it; how many."""
    folders = locales or [locale for _, locale in domains().values()]
    sources = [po for locale in folders for po in locale.glob("*/LC_MESSAGES/*.po")]
    for po in sources:
        po.with_suffix(COMPILED).write_bytes(msgspec.msgpack.encode(_catalogue_of(po)))
    return len(sources)


def domains() -> dict[str, tuple[Path, Path]]:
    """Each domain of gametape and its built-in games: its code's folder and its locale."""
    package = Path(__file__).parent
    found = {DOMAIN: (package, HOME)}
    for game in sorted((package / "games").iterdir()):
        if (game / "__init__.py").exists():
            found[game.name.replace("_", "-")] = (game, game / "locale")
    return found


if __name__ == "__main__":  # python -m gametape.catalogues compile [LOCALE_DIR ...]
    if sys.argv[1:2] != ["compile"]:
        raise SystemExit("usage: python -m gametape.catalogues compile [LOCALE_DIR ...]")
    print(f"compiled {compile_all([Path(a) for a in sys.argv[2:]])} catalogues")
