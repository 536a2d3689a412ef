"""The character set a client's locale names, for a client whose terminal is not UTF-8.

The game's screen is UTF-8 (its borders, cards and accents): a terminal set to another
character set (``LANG=fr_FR.ISO-8859-1``) shows it as garbage. Such a client is told so
before any screen is drawn, in its own character set, as mosh does.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Mapping

_LOCALE = re.compile(r"(?P<base>[A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,3})?)"
                     r"\.(?P<codeset>[A-Za-z0-9][A-Za-z0-9_-]{0,19})(?:@[A-Za-z0-9_]{1,20})?")
"""A locale naming its character set (``language_TERRITORY.codeset@modifier``): nothing
else a client sends is ever shown back to it."""
_UTF8 = {"utf8", "utf-8"}


@dataclass(frozen=True)
class ForeignCharset:
    """A client's locale naming a character set that is not UTF-8."""

    variable: str
    """The variable that decides it (``LC_ALL``, ``LC_CTYPE`` or ``LANG``)."""
    codeset: str
    """The character set as the locale names it (``ISO-8859-1``)."""
    suggested: str
    """The same locale in UTF-8 (``fr_FR.UTF-8``)."""

    def encode(self, text: str) -> bytes:
        """``text`` in this character set, what it cannot hold replaced; in ASCII if
        Python does not know it."""
        return text.encode(_codec(self.codeset), errors="replace")


def _codec(codeset: str) -> str:
    """Python's codec for a locale's codeset, which glibc also accepts written without
    its hyphens (``iso885915``, ``koi8r``); ``ascii`` for one Python does not know."""
    name = codeset.lower()
    for candidate in (name, re.sub(r"^iso-?8859-?(\d+)$", r"iso8859-\1", name),
                      re.sub(r"^koi8-?([a-z])$", r"koi8-\1", name)):
        try:
            return codecs.lookup(candidate).name
        except LookupError:
            continue
    return "ascii"


def foreign_charset(environment: Mapping[str, str]) -> ForeignCharset | None:
    """The character set the client's locale names for its terminal, if it names one
    and that one is not UTF-8; None otherwise (C, POSIX, a locale naming none: the
    terminal may well be UTF-8). The first variable set decides, as in POSIX."""
    for variable in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environment.get(variable, "")
        if not value:
            continue
        match = _LOCALE.fullmatch(value)
        if match is None or match["codeset"].lower() in _UTF8:
            return None
        return ForeignCharset(variable, match["codeset"], f"{match['base']}.UTF-8")
    return None
