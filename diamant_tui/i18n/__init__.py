"""Translations of every visible text of the interface, per language.

Each language is a plain dict catalogue (``en.py``, ``fr.py``, ``es.py``, ``uk.py``)
mapping a key to a text with ``str.format`` placeholders. A :class:`Translator` is
bound to one language and owned by one app, so several apps in one process (one per
SSH connection) can each speak their own language: there is no global language.
"""

from __future__ import annotations

import os
from typing import Mapping

from . import en, es, fr, uk

CATALOGUES: dict[str, dict[str, str]] = {
    "en": en.CATALOGUE,
    "fr": fr.CATALOGUE,
    "es": es.CATALOGUE,
    "uk": uk.CATALOGUE,
}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "es": "Español",
    "uk": "Українська",
}


class UnknownLanguage(ValueError):
    """A language code that has no catalogue."""


def parse_language(code: str) -> str:
    """The catalogue code for ``code`` (``fr``, ``fr_FR.UTF-8``, ``uk-UA``…) or raise."""
    short = str(code).strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    if short in CATALOGUES:
        return short
    raise UnknownLanguage(
        f"unknown language {code!r}; choose one of {', '.join(LANGUAGES)}."
    )


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language asked for by the locale (LC_ALL, LC_MESSAGES, LANG), English otherwise."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        # The first variable that is set decides, as in POSIX locale resolution.
        try:
            return parse_language(value)
        except UnknownLanguage:
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


class Translator:
    """Texts in one language: ``t("key", **fmt)``; a missing key falls back to English."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = parse_language(lang)
        self._catalogue = CATALOGUES[self.lang]

    def __call__(self, key: str, **fmt: object) -> str:
        text = self._catalogue.get(key)
        if text is None:
            text = CATALOGUES[DEFAULT_LANGUAGE].get(key, key)
        return text.format(**fmt) if fmt else text

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


__all__ = [
    "CATALOGUES",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "Translator",
    "UnknownLanguage",
    "detect_language",
    "parse_language",
]
