"""The lobby as a person sees it at 80x24: the dialog to open a table, languages, the
resume code, and spectators chatting under their own names."""

from __future__ import annotations

import asyncio
import functools
import re
from dataclasses import replace
from pathlib import Path

import pytest

from diamant_tui.engine.cards import Rules
from diamant_tui.i18n import Translator
from diamant_tui.table import TableSettings, TableStatus
from diamant_server.lobby import Lobby, LobbyError, TableSummary
from diamant_server.lobby_screen import COLUMNS
from diamant_tui.ui.screens.waiting_questions import READ_FIRST

def squash(text: str) -> str:
    """``text`` without whitespace and toasts' edges (▌): a message may wrap."""
    return "".join(text.replace("▌", " ").split())


FIELDS = ("Name", "Rule set", "Seats", "Computer players", "Their strength", "Decision timer",
          "Hidden chests", "Private", "Open the table", "Cancel (Esc)")


async def test_the_open_dialog_fits_80x24_and_enter_opens_a_table(server, players, make_key):
    ann, bob = players("ann"), players("bob")
    for person in (ann, bob):
        await person.connect(server.port, key=make_key())
        await person.wait_for("lobby")
    ann.press("n")
    text = await ann.wait_for("Open a table")
    for field in FIELDS:
        assert field in text, field
    assert re.search(r"Name +cave-1", text)  # the name a table left unnamed gets
    assert re.search(r"Seats +4 ", text) and re.search(r"Computer players +0 ", text)
    ann.press("enter")  # nothing typed: the defaults
    await ann.wait_for("Start now")
    table = server.lobby.get("cave-1")
    assert table is not None and len(table.seats) == 4 and len(table.settings.bots) == 0
    assert table.settings.timer is None and not table.settings.hidden_chests
    await bob.wait_for(r"cave-1 +Classic +1/4 +0 +3 +off +waiting")
    bob.press("n")
    await bob.wait_for(r"Name +cave-2")  # the next free name
    bob.press("escape")
    await bob.wait_for(lambda t: "Open a table" not in t)


async def test_the_dialog_says_what_is_wrong_in_the_persons_language(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("Diamant par SSH ◆ le salon")
    ann.press("n")
    await ann.wait_for("Ouvrir une table")
    ann.type("a b")
    ann.press("enter")
    await ann.wait_for("'a b' ne peut pas nommer une table")
    assert "Ouvrir la table" in ann.text and "Annuler (Échap)" in ann.text
    assert not server.lobby.tables



async def test_the_dialogs_error_follows_the_fields_once_shown(server, players, make_key):
    """A name refused on Enter: the error changes with the name as it is typed again,
    and goes as soon as the name can name a table, before anything is sent."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("[b]x")
    ann.press("enter")
    await ann.wait_for(lambda t: "'[b]x' cannot name a table" in t)
    # One key at a time, each seen before the next, as a person types and reads.
    ann.press("backspace")
    await ann.wait_for(lambda t: "'[b]' cannot name a table" in t and "'[b]x'" not in t)
    ann.press("backspace")
    await ann.wait_for(lambda t: "'[b' cannot name a table" in t)
    ann.press("backspace")
    await ann.wait_for(lambda t: "'[' cannot name a table" in t)
    ann.press("backspace")  # nothing typed: the free name offered, which is right
    await ann.wait_for(lambda t: "cannot name a table" not in t and re.search(r"Name +cave-1", t))
    ann.type("cave")
    await ann.wait_for(r"Name +cave ")
    assert "Open a table" in ann.text and not server.lobby.tables  # nothing sent yet
    ann.press("enter")
    await ann.wait_for("Start now")
    assert server.lobby.get("cave") is not None


async def test_a_name_in_use_is_refused_in_the_dialog_keeping_the_choices(
        server, players, make_key):
    """A table's name already in use is said in the dialog, as a name that cannot name a
    table is, with what to do: the dialog stays, and the choices made in it with it (it
    closed, the choices lost, and the lobby said only that the name was taken)."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=()), "x")
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("den")
    await ann.wait_for(r"Name +den ")
    ann.press("enter")
    text = await ann.wait_for(lambda t: "There is already a table called den" in t)
    assert "choose another name" in text
    assert "Open a table" in text  # still there, with whatever was chosen in it
    assert list(server.lobby.tables) == ["den"]
    ann.type("2")
    await ann.wait_for(lambda t: "already" not in t and re.search(r"Name +den2 ", t))
    ann.press("enter")
    await ann.wait_for("Start now")
    assert server.lobby.get("den2") is not None


async def test_the_language_switches_the_whole_lobby_live(server, players, make_key):
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",), timer=30.0), "x")
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for(r"den +Classic +0/3 +1 +2 +30 s +waiting")
    ann.press("g")
    text = await ann.wait_for(lambda t: re.search(r"den +Classique +0/3 +1 +2 +30 s +en attente", t)
                              and "n Nouvelle" in t)  # the key hints too
    assert "Humains" in text and "Language" not in text
    assert "f1 Règles" in text  # every key hint fits on the line at 80 columns
    for _ in range(2):
        ann.press("g")
    await ann.wait_for(lambda t: re.search(r"den +Класика", t) and "Мова: Українська" in t
                       and "Новий стіл" in t and "f1 Правила" in t)
    ann.press("enter")  # the list keeps working after it was redrawn
    await ann.wait_for(lambda t: "Новий стіл" not in t)
    assert [s.name for s in server.lobby.get("den").seats if s.kind.value == "person"] == ["ann"]


async def test_the_lobbys_timers_firing_while_it_is_made_again_in_a_new_language_break_nothing(
        server, players, make_key):
    """The lobby's timers (the list looked at every 2 s, the note line cleared) run from
    tasks of their own, at any moment: one that fires while `g` makes the lobby again
    (its old widgets gone, the new ones not made yet) leaves the session as it was, and
    a note told meanwhile is shown once the lobby is back, in the new language."""
    from diamant_server.lobby_screen import LobbyScreen

    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",), timer=30.0), "x")
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for(r"den +Classic +0/3")
    (session,) = server.sessions
    lobby = session.app.screen
    assert isinstance(lobby, LobbyScreen)
    lobby.tell("A first note")  # its line's timer runs as well
    await ann.wait_for("A first note")
    compose = lobby.compose
    fired = []

    def timers_fire_then_compose():
        # Between the old widgets' removal and the new ones' mount.
        for timer in list(lobby._timers):
            callback = timer._callback
            if isinstance(callback, functools.partial):  # set_timer's: through the queue
                callback = callback.args[0]
            if (getattr(callback, "__self__", None) is lobby
                    and callback.__func__.__module__ == LobbyScreen.__module__):
                fired.append(callback.__name__)
                callback()
        lobby.tell("Told meanwhile")
        return compose()

    lobby.compose = timers_fire_then_compose
    ann.press("g")
    await ann.wait_for(lambda t: re.search(r"den +Classique +0/3", t) and "Told meanwhile" in t)
    assert "refresh_tables" in fired and "_clear_note" in fired
    lobby.compose = compose
    ann.press("g")  # and the lobby goes on as usual
    await ann.wait_for(lambda t: re.search(r"den +Clásico +0/3", t))


async def test_a_guest_keeps_the_resume_code_in_the_lobby_header(server, players):
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2), "x")
    gus = players("gus")
    await gus.connect(server.port)
    await gus.wait_for(r"den +Classic")
    assert "Resume code:" not in gus.text  # no code before sitting down
    gus.press("enter")  # the last seat: the game begins
    text = await gus.wait_for(r"resume code is [A-Z0-9]{6}")
    code = re.search(r"resume code is ([A-Z0-9]{6})", text)[1]
    assert "more people to join" not in text  # no waiting toast covering the table
    # The address gus used, and his name: the command works from any local account.
    command = f"ssh -t -p {server.port} gus@127.0.0.1 resume {code}"
    gus.press("f1")  # at the table, the help keeps the code and the command in sight
    # (The command may go on over the box's next line: whatever the box lies over is on
    # its left there.)
    command_shown = re.compile(rf"ssh -t -p( |\s*│[^\n]*\n[^\n]*│ ){server.port} "
                               rf"gus@127\.0\.0\.1 resume {code}")
    await gus.wait_for(lambda t: f"Your resume code is {code}" in t and "Diamant — the rules" in t
                       and command_shown.search(t))
    gus.press("escape")
    await gus.wait_for(lambda t: "Round 1/5" in t and "Diamant — the rules" not in t)
    gus.press("q")
    await gus.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    gus.press("y")
    # The seat is played for them meanwhile: the code to take it back stays in sight
    # (the lobby's header is drawn with its first full frame; "lobby" may come before).
    await gus.wait_for(lambda t: "lobby" in t and f"Resume code: {code} · {command}" in t)


async def test_the_lobbys_resume_command_is_never_broken_over_two_lines(server, players):
    """A command too long for the header's line after "Código para volver: CODE" goes on a
    line of its own, whole, so that it is copied in one piece (it wrapped before its code,
    and was copied in two), as it is at the table."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2), "x")
    max_ = players("Maximiliano_Ruiz")
    await max_.connect(server.port, command="play den", env={"LANG": "es_ES.UTF-8"})
    text = await max_.wait_for(r"Tu código para volver es [A-Z0-9]{6}")
    code = re.search(r"volver es ([A-Z0-9]{6})", text)[1]
    command = f"ssh -t -p {server.port} Maximiliano_Ruiz@127.0.0.1 resume {code}"
    max_.press("q")
    await max_.wait_for("¿Dejar esta mesa")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    max_.press("y")
    text = await max_.wait_for(lambda t: "la sala" in t and f"Código para volver: {code}" in t)
    assert any(line.strip() == command for line in text.splitlines()), text


async def test_a_guest_who_gives_up_a_waiting_seat_is_shown_no_resume_code(server, players):
    """A code gives back a seat held: once the seat is given up, the lobby shows none (it
    showed the code, which the server then refused: "No seat is waiting for the code")."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=()), "x")
    ann, gus = players("ann"), players("gus")
    await ann.connect(server.port, command="play den")  # keeps the table open
    await ann.wait_for("waiting for players")
    await gus.connect(server.port, command="play den")
    text = await gus.wait_for(r"resume code is [A-Z0-9]{6}")
    code = re.search(r"resume code is ([A-Z0-9]{6})", text)[1]
    gus.press("q")
    await gus.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a q typed with the first is no answer
    gus.press("q")
    # The list shows the seat freed (den has one person again) once gus is back in it.
    text = await gus.wait_for(r"den +Classic +1/3")
    assert server.lobby.identity_for_code(code) is None  # the server refuses the code...
    assert "Resume code:" not in text and code not in text  # ...and the lobby offers none


async def test_spectators_chat_under_their_own_names(server, players, make_key):
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    ann, wes, other_wes = players("ann"), players("wes"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den")
    for watcher in (wes, other_wes):
        await watcher.connect(server.port, key=make_key(), command="watch den")
        await watcher.wait_for("t Chat")
    for n in range(5):  # a whole burst: it does not use up the other watcher's share
        wes.press("t")
        await wes.wait_for("Say something")
        wes.type(f"line {n}")
        wes.press("enter")
        await ann.wait_for(rf"wes \(watching\): line {n}")
        # The chat box has closed on wes's screen before the next "t" opens it again:
        # typed any sooner, the next line's letters would be keys of the table.
        await wes.wait_for(lambda t: "Say something" not in t)
    other_wes.press("t")
    await other_wes.wait_for("Say something")
    other_wes.type("me too")
    other_wes.press("enter")
    await ann.wait_for(r"wes² \(watching\): me too")
    assert table.status.value == "waiting"


async def test_the_server_says_goodbye_in_each_persons_language(server, players, make_key):
    ann, ivan = players("ann"), players("ivan")
    await ann.connect(server.port, key=make_key(), env={"LANG": "fr_FR.UTF-8"})
    await ivan.connect(server.port, key=make_key())
    await ann.wait_for("le salon")
    await ivan.wait_for("lobby")
    ivan.press("g", "g", "g")  # English, French, Spanish, then Ukrainian
    await ivan.wait_for("Мова: Українська")
    await server.stop()
    for person in (ann, ivan):
        await person.wait_closed()
    assert "Le serveur s'arrête".encode() in ann.raw
    assert "Сервер зупиняється".encode() in ivan.raw


async def test_free_names(tmp_path: Path):
    lobby = Lobby(tmp_path)
    assert lobby.free_name() == "cave-1"
    lobby.create(TableSettings(name="cave-1", seats=3, bots=("carry:20",) * 2), "x")
    assert lobby.free_name() == "cave-2"
    await lobby.close()


async def test_a_table_name_that_only_looks_like_an_open_ones_is_refused(tmp_path: Path):
    """``cаve`` with a Cyrillic ``а`` beside ``cave``: two lines of the lobby that read
    the same, and whoever picked one could not know which they joined."""
    lobby = Lobby(tmp_path)
    lobby.create(TableSettings(name="cave", seats=3, bots=("carry:20",) * 2), "x")
    for alike in ("c\u0430ve", "CAVE", "ｃａｖｅ"):
        assert lobby.name_in_use(alike)
        with pytest.raises(LobbyError) as refused:
            lobby.create(TableSettings(name=alike, seats=3), "y")
        assert refused.value.text(Translator("en")) == (
            "There is already a table called cave: choose another name.")
    assert not lobby.name_in_use("cave2")
    await lobby.close()


WIDE_NAME = "洞" * 20
"""The widest table name there can be: 20 letters, each two columns wide."""
LOCALES = {"en": "en_US.UTF-8", "fr": "fr_FR.UTF-8", "es": "es_ES.UTF-8", "uk": "uk_UA.UTF-8"}


def _widest_rows() -> list[TableSummary]:
    """Rows with the widest value of every column: every rule set with every state first
    (so each shows on screen), then enough more for the list to scroll."""
    rows = []
    for n in range(24):
        status = list(TableStatus)[n % 3]
        rules = list(Rules)[n // 3 % 3]
        name = (WIDE_NAME if n == 1 else "abcdefghij0123456789" if n == 0
                else f"{n:02d}" + "x" * 18)
        rows.append(TableSummary(name=name, rules=rules.value, seats=8, people=8, computers=7,
                                 free=8, timer=60.0 if n % 2 else None, status=status))
    return rows


@pytest.mark.parametrize("lang", LOCALES)
async def test_every_column_of_the_table_list_shows_at_80_columns(server, players, lang):
    """The longest table names, every rule set, timer and state, and a list long enough
    to scroll: every column is on screen in every language, with no sideways scrolling."""
    rows = _widest_rows()
    server.lobby.summaries = lambda *_, **__: rows  # every value at its widest at once
    t = Translator(lang)
    ann = players("ann")
    await ann.connect(server.port, env={"LANG": LOCALES[lang]})
    text = await ann.wait_for("abcdefghij0123456789")
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith(f" {t('lobby.col.table')} "))
    assert header.split() == [t(f"lobby.col.{column}") for column in COLUMNS]
    shown = [line for line in lines if re.match(r" (abcdef|洞|\d\dx)", line)]
    assert len(shown) >= 9  # every rule set with every state
    for row, line in zip(rows, shown):
        # The last column, whole, on the row's line: so every column before it too.
        status = t(f"lobby.status.{row.status.value}")
        assert line.rstrip(" ▁▂▃▄▅▆▇█▊▋▌▍▎▏▐").endswith(f"  {status}"), (line, status)
        # A name too wide for its column ends with an ellipsis, never cut silently.
        assert line.startswith(f" {row.name} ") or (
            row.name == WIDE_NAME and line.startswith(" 洞洞洞洞洞洞洞洞洞…")), line
    # No sideways scroll bar under the list: a line of nothing but its thumb.
    assert not any(line.strip() and not line.strip(" ▁▂▃▄▅▆▇█▊▋▌▍▎▏▐")
                   for line in lines), text


async def test_a_wide_terminal_shows_table_names_in_wide_letters_whole(server, players):
    """Two tables whose names of wide letters differ only at their end: cut at 20
    columns, they read the same at any width (130 columns, most of the line empty), and
    nobody could tell which to join; the resize back to 80 cuts them again."""
    rows = _widest_rows()
    rows[2] = replace(rows[1], name=WIDE_NAME[:-1] + "窟")
    server.lobby.summaries = lambda *_, **__: rows
    ann = players("ann", size=(130, 30))
    await ann.connect(server.port)
    text = await ann.wait_for("abcdefghij0123456789")
    assert f" {WIDE_NAME}  " in text and f" {WIDE_NAME[:-1]}窟  " in text, text
    private = replace(rows[1], private=True)
    server.lobby.summaries = lambda *_, **__: [private]
    text = await ann.wait_for("(priv.)")
    assert f" {WIDE_NAME} (priv.)  " in text, text
    server.lobby.summaries = lambda *_, **__: rows
    ann.resize(80, 24)
    # The name column as narrow as at 80 columns from the start.
    text = await ann.wait_for(lambda t: re.search(r"^ Table {17}Rules ", t, re.M) is not None)
    assert " 洞洞洞洞洞洞洞洞洞… " in text and WIDE_NAME not in text


async def test_ctrl_c_says_how_to_quit_in_the_persons_language(server, players):
    """Ctrl+C, which people press by habit to quit, does not quit: what it says instead
    is said in their language and as plain words (it said, in English in every language,
    "Press [b]ctrl+q[/b] to quit the app", its markup shown as written)."""
    ann = players("ann")
    await ann.connect(server.port, env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("Aucune table")
    ann.press("\x03")
    text = await ann.wait_for(lambda t: "Vous voulez quitter" in t)
    assert "Appuyez sur Ctrl+Q pour quitter." in text
    assert "[b]" not in text and "quit the app" not in text
    ann.press("\x11")  # and Ctrl+Q does quit
    await asyncio.wait_for(ann.closed.wait(), 30)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_table_or_code_not_found_is_said_with_what_to_do(server, players, lang):
    """``watch NAME`` for no table, ``resume CODE`` for no seat: the lobby says what was
    wrong and what to do about it (it said only that there was no such table or seat)."""
    t = Translator(lang)
    for command, says in (("watch nothere", t("lobby.error.no_table", name="nothere")),
                          ("resume ABC123", t("server.no_seat_for_code", code="ABC123"))):
        person = players("ann")
        await person.connect(server.port, command=command, env={"LANG": LOCALES[lang]})
        text = await person.wait_for(lambda t, says=says: squash(says) in squash(t))
        assert {"en": ": check", "fr": " : vérifiez"}[lang] in says, says
        assert "lobby" in text or "salon" in text
        await person.close()


async def test_a_french_refusal_never_begins_a_line_with_a_closing_guillemet(server, players):
    """The French for "'_', '.' or '-'" quoted each sign in spaced guillemets, and a line
    broken inside one began with its "»" ("« .\\n» ou « - »"): a terminal's lines break at
    spaces, even no-break ones, so the signs are quoted as in the other languages."""
    ann = players("ann")
    await ann.connect(server.port, command="play 'a[b]'", env={"LANG": "fr_FR.UTF-8"})
    text = await ann.wait_for("ne peut pas nommer une table")
    assert not any(line.lstrip().startswith(("»", ":", ";")) for line in text.splitlines()), text
    assert "chiffres,'_','.'ou'-'." in squash(text)


@pytest.mark.parametrize("lang, guest_says, key_says", [
    ("en_US.UTF-8", "Your resume code (shown when you sat down):",
     "A guest's resume code (your key takes you back to your own seats as you connect):"),
    ("uk_UA.UTF-8", "Ваш код повернення (показаний, коли ви сіли за стіл):",
     "Код повернення гостя (ваш ключ сам повертає вас на ваші місця, щойно ви "
     "під'єднаєтеся):"),
])
async def test_the_resume_dialog_tells_someone_with_a_key_their_key_brings_them_back(
        server, players, make_key, lang, guest_says, key_says):
    """r in the lobby asked everyone for the code "shown when you sat down": someone
    with a key is never shown one, their key being what brings them back."""
    for key in (None, make_key()):
        person = players("ann")
        await person.connect(server.port, key=key, env={"LANG": lang})
        await person.wait_for(lambda t: "▶" not in t and " r " in t.splitlines()[-1])
        person.press("r")
        said = guest_says if key is None else key_says
        text = await person.wait_for(lambda t: said in " ".join(
            line.strip(" │╭╮╰╯─") for line in t.splitlines()))
        assert (key_says if key is None else guest_says) not in " ".join(text.split())
        await person.close()


@pytest.mark.parametrize("lang, bar", [
    ("en", "esc Cancel"), ("fr", "esc Annuler"), ("es", "esc Cancelar"),
    ("uk", "esc Скасувати"),
])
async def test_the_key_bar_under_the_lobbys_dialogs_says_their_key(
        server, players, make_key, lang, bar):
    """The dialog to open a table (``n``) and the one asking for a resume code (``r``)
    take every key: the key bar under them says Escape cancels and F1 shows the rules,
    not the lobby's keys (``q Quit``, ``p Play now``), which there type into the name or
    do nothing."""
    t = Translator(lang)
    bar = f"{bar}  f1 {t('key.rules')}"
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), env={"LANG": f"{lang}_XX.UTF-8"})
    await ann.wait_for(re.escape(t("lobby.key.play_now")))
    for key, title in (("n", t("create.title")), ("r", t("lobby.key.resume"))):
        ann.press(key)
        await ann.wait_for(re.escape(title))
        await ann.wait_for(lambda text: text.splitlines()[-1].strip() == bar)
        assert t("lobby.key.play_now") not in ann.text
        ann.press("escape")
        await ann.wait_for(re.escape(t("lobby.key.play_now")))


async def test_tab_and_enter_typed_together_in_the_open_dialog_open_the_next_choice(
        server, players, make_key):
    """Tab then Enter, in one packet (quick typing over SSH): the Tab moves to the rule
    set and the Enter opens its list, as when typed slowly. (The Enter reached the name
    box, which still had the focus, and opened a table with every choice left as it
    was.)"""
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.send(b"\t\r")
    await ann.wait_for("Relics \\(2016\\)")  # the rule set's list, open
    await asyncio.sleep(0.5)
    assert "Open a table" in ann.text and server.lobby.get("cave-1") is None
    ann.send(b"\x1b[B\r")  # relics
    await ann.wait_for(lambda text: "Relics (2016)" in text and "Classic (2005)" not in text)
    ann.send(b"\x1b[Z\r")  # shift+tab back to the name, Enter opens the table
    await ann.wait_for("Waiting for the game")
    table = server.lobby.get("cave-1")
    assert table is not None and table.settings.rules.value == "relics"
