"""Translations of every visible text of the interface, per language.

Each language is a plain dict catalogue (``en.py``, ``fr.py``, ``es.py``, ``uk.py``)
mapping a key to a text with ``str.format`` placeholders. A :class:`Translator` is
bound to one language and owned by one app, so several apps in one process (one per
SSH connection) can each speak their own language: there is no global language.

A text whose words depend on a number holds its plural forms separated by ``|``, in
the order of :data:`PLURAL_FORMS` for its language (``"1 relic|{count} relics"``);
the ``count`` given to the translator chooses the form.
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


PLURAL_FORMS: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "fr": ("one", "other"),
    "es": ("one", "other"),
    "uk": ("one", "few", "many"),
}
"""The plural forms each language writes, in the order its texts give them (CLDR names)."""


def plural_form(lang: str, count: int) -> str:
    """The CLDR plural form of the whole number ``count`` in ``lang``."""
    n = abs(int(count))
    if lang == "fr":
        return "one" if n < 2 else "other"  # French says "0 rubis reste", as for 1
    if lang == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


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
    """Texts in one language: ``t("key", **fmt)``; a missing key falls back to English.

    A plural text (forms separated by ``|``) takes the form for ``fmt["count"]``.
    """

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = parse_language(lang)
        self._catalogue = CATALOGUES[self.lang]

    def __call__(self, key: str, **fmt: object) -> str:
        text = self._catalogue.get(key)
        lang = self.lang
        if text is None:
            text = CATALOGUES[DEFAULT_LANGUAGE].get(key, key)
            lang = DEFAULT_LANGUAGE
        if "|" in text:
            text = self._plural(lang, text, fmt.get("count", 0))
        return text.format(**fmt) if fmt else text

    @staticmethod
    def _plural(lang: str, text: str, count: object) -> str:
        forms = text.split("|")
        order = PLURAL_FORMS[lang]
        try:
            index = order.index(plural_form(lang, int(count)))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            index = len(order) - 1
        return forms[min(index, len(forms) - 1)]

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


__all__ = [
    "CATALOGUES",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "PLURAL_FORMS",
    "Translator",
    "UnknownLanguage",
    "detect_language",
    "parse_language",
    "plural_form",
]
