"""Hiding a person's chat lines from one's own screen: ``/ignore NAME`` in the chat box.

A person at a table (a player or a spectator) who no longer wants to read someone (rude,
or flooding the chat) hides that person's lines for themselves alone; ``/unignore NAME``
shows them again and ``/ignore`` alone lists who is hidden. The table still sends every
line to everyone, and the hidden person is not told: only this screen leaves the lines
out, wherever chat is read (under the cave, at the foot of the seats, at the final
scores, in the log), those already shown too.

What is hidden belongs to the app, so to one connection: it holds at every table that
connection visits, and after a rematch. It is kept by the name a person shows under at
the table, the only handle the chat gives (two people never show under one name at a
table, :func:`~diamant_tui.names.distinct_name`).

``/report NAME why`` asks to tell the server's hosts that someone at the table is
abusive: the command only finds the name (as ``/ignore`` does) and hands it, with the
reason, to the app (:attr:`CommandAnswer.report`), which knows whether there are hosts
to tell and tells the person what became of it.

A line beginning with ``/`` and a letter is a command, never sent: ``/ignroe bob``
typed by mistake must not tell bob, and the whole table, what was meant for the screen
alone. A line that begins with ``//`` is sent with one ``/`` less (``//shrug``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..names import look_alike_key

Translate = Callable[..., str]

SHOWN_TYPED = 20
"""Characters of a name as typed that a note repeats (no name is longer than 16)."""


class IgnoredNames:
    """The names whose chat lines one person does not see, in the order they were hidden."""

    def __init__(self) -> None:
        self._names: list[str] = []

    def __contains__(self, author: object) -> bool:
        return author in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def hide(self, name: str) -> None:
        """Hide the lines of whoever shows under ``name``."""
        if name not in self._names:
            self._names.append(name)

    def show(self, name: str) -> None:
        """Show the lines of whoever shows under ``name`` again."""
        if name in self._names:
            self._names.remove(name)


@dataclass(frozen=True)
class TableNames:
    """The names a command may name at one table, as that table shows them."""

    me: str
    """The name this person chats under."""
    people: tuple[str, ...]
    """The other people: in the seats, watching, and whoever said the lines still kept."""
    computers: tuple[str, ...]
    """The computer players (they never chat)."""


@dataclass(frozen=True)
class CommandAnswer:
    """What a chat command did: ``text`` tells the person, in their language; ``keep``
    leaves the line in the box to be corrected (a name or a command mistyped)."""

    text: str
    changed: bool = False
    """Someone's lines were hidden or shown again: the screen redraws its chat."""
    keep: bool = False
    report: tuple[str, str] | None = None
    """Someone to report to the hosts: their name as the table shows it, and the reason
    typed (the app files it and says what became of it; ``text`` is then empty)."""


def line_to_send(typed: str) -> str:
    """The chat line a line typed stands for: one that begins with ``//`` without its
    first ``/`` (a line beginning with ``/`` is otherwise a command)."""
    return typed.lstrip()[1:] if typed.lstrip().startswith("//") else typed


def is_command(typed: str) -> bool:
    """Whether ``typed`` is a command for this screen rather than a line to send: a
    ``/`` then a letter (``/ hi`` and ``/3`` are said as typed)."""
    text = typed.lstrip()
    return text[:1] == "/" and text[1:2].isalpha()


def run_command(typed: str, ignored: IgnoredNames, names: TableNames,
                t: Translate) -> CommandAnswer:
    """Do the command ``typed`` (:func:`is_command`) and say what it did."""
    word, _, rest = typed.strip()[1:].partition(" ")
    command = word.casefold()
    name = " ".join(rest.split())
    watching = t("chat.watching", name="")  # "vic (watching)", copied from the screen
    if watching.strip() and name.endswith(watching.strip()):
        name = name[: -len(watching.strip())].strip()
    if command == "ignore" and name:
        return _ignore(name, ignored, names, t)
    if command == "unignore" and name:
        return _unignore(name, ignored, t)
    if command in ("ignore", "unignore"):
        return _listed(ignored, t)
    if command == "report":
        return _report(rest, names, t, watching.strip())
    return CommandAnswer(t("chat.unknown_command", command=_as_typed("/" + word)), keep=True)


def _ignore(typed: str, ignored: IgnoredNames, names: TableNames, t: Translate) -> CommandAnswer:
    found = find_name(typed, (names.me, *names.people, *names.computers))
    if found is None:
        return CommandAnswer(t("chat.ignore_unknown", name=_as_typed(typed)), keep=True)
    if found == names.me:
        return CommandAnswer(t("chat.ignore_self"))
    if found in ignored:
        return CommandAnswer(t("chat.ignore_already", name=found))
    if found not in names.people:  # (a person gone may have left a computer their name)
        return CommandAnswer(t("chat.ignore_computer", name=found))
    ignored.hide(found)
    return CommandAnswer(t("chat.ignored", name=found), changed=True)


def _report(typed: str, names: TableNames, t: Translate, watching: str) -> CommandAnswer:
    """``/report NAME why``: the name is the longest run of first words that names
    someone here (a name may hold a space), the rest is the reason (without the
    ``watching`` mark of a spectator's name copied from the screen)."""
    words = typed.split()
    if not words:
        return CommandAnswer(t("chat.report_usage"), keep=True)
    everyone = (names.me, *names.people, *names.computers)
    for count in range(len(words), 0, -1):
        found = find_name(" ".join(words[:count]), everyone)
        if found is not None:
            break
    else:
        return CommandAnswer(t("chat.report_unknown", name=_as_typed(words[0])), keep=True)
    if found == names.me:
        return CommandAnswer(t("chat.report_self"))
    if found not in names.people:
        return CommandAnswer(t("chat.report_computer", name=found))
    reason = " ".join(words[count:])
    if watching and reason.startswith(watching):
        reason = reason[len(watching):].strip()
    return CommandAnswer("", report=(found, reason))


def _unignore(typed: str, ignored: IgnoredNames, t: Translate) -> CommandAnswer:
    found = find_name(typed, ignored)
    if found is None:
        return CommandAnswer(t("chat.not_ignored", name=_as_typed(typed)), keep=True)
    ignored.show(found)
    return CommandAnswer(t("chat.unignored", name=found), changed=True)


def _listed(ignored: IgnoredNames, t: Translate) -> CommandAnswer:
    if not len(ignored):
        return CommandAnswer(t("chat.ignore_none"))
    return CommandAnswer(t("chat.ignore_list", names=", ".join(ignored)))


def find_name(typed: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``typed`` stands for: the same letters whatever
    their case, else a name that looks like it (Cyrillic ``а`` for Latin ``a``), else
    one whose mark a keyboard cannot type (``ann2`` for ``ann²``); None if none does."""
    names = list(dict.fromkeys(names))
    for key in (str.casefold, look_alike_key, _typable_key):
        wanted = key(typed)
        found = next((name for name in names if key(name) == wanted), None)
        if found is not None:
            return found
    return None


def _typable_key(name: str) -> str:
    """``name`` as it can be typed: the table's marks (``²``) as plain digits."""
    return look_alike_key(unicodedata.normalize("NFKC", name))


def _as_typed(text: str) -> str:
    """What the person typed, repeated in a note: cut to a name's length or so."""
    return text if len(text) <= SHOWN_TYPED else text[: SHOWN_TYPED - 1] + "…"


__all__ = ["CommandAnswer", "IgnoredNames", "TableNames", "find_name", "is_command",
           "line_to_send", "run_command"]
