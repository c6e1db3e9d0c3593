"""The reader's language: which one gametape speaks to them, and its words for messages.

The choice is made from ``--lang`` (a page: its link's ``?lang=``, else its browser's
``Accept-Language``) or, as gettext does, from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and
``LANG``; English by default. English needs no catalogue and imports nothing but this; the
other languages' words come from gettext catalogues (``gametape.catalogues``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from gametape.languages import LANGUAGES as LANGUAGES  # which, by their own names
from gametape.languages import PSEUDO, SPOKEN
from gametape.languages import RTL as RTL  # those written right to left

if TYPE_CHECKING:
    from gametape.messages import Words


def language(explicit: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """The reader's language: ``explicit`` (``--lang``) if given, else the first of the
    environment's as gettext reads it (``LANGUAGE`` a list by ``:``; ``fa_IR.UTF-8`` is
    ``fa``) that gametape speaks; English otherwise. A ``--lang`` gametape does not speak is
    a usage error, said in one line (ValueError)."""
    if explicit is not None:
        code = _code(explicit)
        if code not in SPOKEN:
            raise ValueError(f"--lang {explicit!r}: gametape speaks {', '.join(sorted(LANGUAGES))}")
        return code
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for part in value.split(":"):
            if _code(part) in LANGUAGES:
                return _code(part)
        if variable != "LANGUAGE":  # the first of LC_ALL, LC_MESSAGES, LANG set decides
            break
    return "en"


def _code(text: str) -> str:
    """``fa_IR.UTF-8@x`` → ``fa``; ``C`` and ``POSIX`` are English."""
    code = text.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()
    return "en" if code in ("c", "posix") else code


def accepted(header: str) -> str:
    """The language a browser asks for (``Accept-Language: fa-IR,fa;q=0.9,en;q=0.8``) that
    gametape speaks, by the browser's order of preference; English otherwise."""
    ranked = []
    for n, part in enumerate(header.split(",")[:20]):
        tag, _, rest = part.strip().partition(";")
        weight = 1.0
        if rest.strip().startswith("q="):
            try:
                weight = float(rest.strip()[2:])
            except ValueError:
                weight = 0.0
        ranked.append((-weight, n, _code(tag)))
    return next((code for _, _, code in sorted(ranked) if code in LANGUAGES), "en")


@cache
def words(lang: str, page: bool = False) -> Words:
    """The words of ``lang`` (English: the texts as the code says them); for a ``page``,
    a name or notation in a right-to-left sentence is isolated (what ``<bdi>`` does; a
    terminal, which lays out no direction, gets it bare)."""
    from gametape.messages import ENGLISH

    if lang == "en":
        return ENGLISH
    if lang == PSEUDO:
        from gametape.messages import Pseudo

        return Pseudo()
    from gametape.catalogues import Catalogued

    return Catalogued(lang, isolate=page)


def page_translations(lang: str) -> Any:
    """gametape's own catalogue in ``lang``, as a page template takes it (``jinja2.ext.i18n``:
    a ``gettext.NullTranslations``)."""
    import gettext

    if lang == "en":
        return gettext.NullTranslations()
    if lang == PSEUDO:
        from gametape.catalogues import PseudoCatalogue

        return PseudoCatalogue()
    from gametape.catalogues import DOMAIN, HOME, load

    return load(HOME, DOMAIN, lang)


_default = ["en"]  # the command's language: a server's pages' unless they ask for another


def choose(lang: str, *, default: bool = True, page: bool = False) -> Words:
    """Render every message from now on in ``lang``, in this context: a command's language
    (``default``: also its pages' when they ask for none), or one request's (``page``)."""
    from gametape.messages import use

    chosen = words(lang, page)
    use(chosen)
    if default:
        _default[0] = lang
    return chosen


def default() -> str:
    """The command's language (``--lang`` or the environment's): a page's unless it asks."""
    return _default[0]
