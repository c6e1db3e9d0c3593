"""Text from users and logs, made safe to show: control characters become visible symbols."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# C0 controls but tab and newline, DEL, the C1 controls (ESC [ and CSI reach a terminal), and
# lone surrogates (a file name's bytes that are not UTF-8, as Python decodes them).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode's control pictures: ESC → ␛, NUL → ␀
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return "␡" if code == 0x7F else "�"


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline shown as a symbol
    (``"\\x1b[31m"`` → ``"␛[31m"``), so printing it can never drive the terminal.

    >>> visible("ann\\x1b[2J")
    'ann␛[2J'
    """
    return _CONTROL.sub(_picture, text) if _CONTROL.search(text) else text


def clipped(text: str, most: int = 60) -> str:
    """``text`` as an error names what it was given: whole up to ``most`` characters,
    else its start and end and how long it is (``"aaaa…aaaa" (5,000 characters)``).

    >>> clipped("9" * 5000, 12)
    '99999999…9999 (5,000 characters)'
    """
    if len(text) <= most:
        return text
    return f"{text[: most * 2 // 3]}…{text[-(most // 3) :]} ({len(text):,} characters)"


def article(word: str) -> str:
    """``a red``, ``an orange``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (tab and newline included)."""
    return any(not c.isprintable() and c != " " for c in text)


def shown_path(path: object) -> str:
    """A file name as one line of text: bytes that are not UTF-8 (``bad\\xff.jsonl``) are
    shown escaped, and every control character, newline and tab included, as a symbol."""
    return visible(str(path)).replace("\n", "␊").replace("\t", "␉")


def person(name: str) -> str:
    """A player's name as a person: Unicode compatibility form (NFKC: full-width ``Ａｎｎ`` is
    ``Ann``), case folded (``ANN`` is ``ann``, ``ß`` is ``ss``), runs of white space as one
    space. Two names that read the same are one person, in a game and across games."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


# Letters of other scripts that look like Latin ones (a short table after Unicode TR39's
# confusables: the Cyrillic and Greek letters a name is most likely to hide).
_LATIN_LOOK = str.maketrans(
    "АВЕЅІЈКМНОРСТХУаеѕіјорсхуһԁԛԝӏ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχ",  # Greek
    "ABESIJKMHOPCTXYaesijopcxyhdqwlABEZHIKMNOPTYXaikvoptux",
)


def look(name: str) -> str:
    """What a name looks like: :func:`person`'s reading of it with Cyrillic and Greek
    letters that look Latin read as those Latin letters (``Аnn`` with a Cyrillic А looks
    like ``ann``). Two people who look alike are worth a warning, never a merge."""
    return person(unicodedata.normalize("NFKC", name).translate(_LATIN_LOOK))


def look_alikes(names: Iterable[str]) -> list[list[str]]:
    """Groups (of two or more) of different people's names that look alike, each sorted."""
    groups: dict[str, set[str]] = {}
    for name in names:
        groups.setdefault(look(name), set()).add(name)
    return sorted(sorted(same) for same in groups.values() if len({person(n) for n in same}) > 1)
