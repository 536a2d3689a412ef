"""Terminals good and bad: sizes, no pty, garbage, floods and clients that stop reading.

Whatever one client does, the server stays up and the other sessions keep playing.
"""

from __future__ import annotations

import asyncio
import itertools
import re

import pytest
from rich.cells import cell_len

from diamant_tui.i18n import Translator
from diamant_tui.table import TableSettings
from harness import Player
from diamant_server.commands import help_text
from diamant_server.session import SessionLimits

TURN = re.compile(r"Round (\d)/5 · card (\d+)")


async def until(test, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds on the server side (no timing assertion)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "the server never reached the expected state"
        await asyncio.sleep(0.05)


async def a_game_in_progress(server, players, make_key, name: str = "steady") -> Player:
    """A person playing at a table with two computer players, at their decision."""
    server.lobby.create(TableSettings(name=name, seats=3, bots=("carry:20",) * 2, seed=11,
                                      pace=0.02), "test")
    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command=f"play {name}")
    await bob.wait_for("Your turn")
    return bob


async def still_playing(bob: Player) -> None:
    """Bob answers a decision and sees the game move on."""
    before = TURN.search(bob.text)[0]
    bob.press("c")
    await bob.wait_for(lambda t: (m := TURN.search(t)) is not None and m[0] != before
                       or "Final scores" in t or "is over" in t)


async def test_a_client_without_a_pty_is_told_to_use_ssh_t(server, players):
    plain = players("ann")
    await plain.connect(server.port, pty=False, command="play cave")
    await plain.wait_closed()
    assert b"ssh -t" in plain.raw
    assert plain.chan.get_exit_status() == 1
    assert server.lobby.get("cave") is None


async def test_an_unknown_command_gets_a_clear_message(server, players, make_key):
    stranger = players("ann")
    await stranger.connect(server.port, key=make_key(), command="rm -rf /")
    await stranger.wait_closed()
    assert b"Unknown command 'rm'" in stranger.raw
    assert b"play NAME" in stranger.raw
    bad = players("bob")
    await bad.connect(server.port, key=make_key(), command="play cave --seats 12")
    await bad.wait_closed()
    assert b"3 to 8 seats" in bad.raw


async def test_window_changes_are_followed_and_a_small_terminal_is_asked_to_grow(
        server, players, make_key):
    bob = await a_game_in_progress(server, players, make_key)
    bob.resize(120, 40)
    await bob.wait_for(lambda t: len(t.splitlines()) == 40 and "Your turn" in t)
    bob.resize(60, 20)
    await bob.wait_for("Please enlarge your terminal")
    bob.resize(80, 24)
    await bob.wait_for(lambda t: "Your turn" in t and "enlarge" not in t)
    await still_playing(bob)

    tiny = players("tim", size=(40, 12))
    await tiny.connect(server.port, key=make_key())
    await tiny.wait_for("Please enlarge")


async def test_invalid_utf8_is_replaced_and_the_session_goes_on(server, players, make_key):
    noisy = players("eve")
    await noisy.connect(server.port, key=make_key())
    await noisy.wait_for("lobby")
    noisy.send(b"\xff\xfe\xfd\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\xed\xa0\x80" * 50)
    # The lobby still answers keys (once the allowance the garbage used has come back).
    await noisy.press_until("n", "Open a table")


async def test_garbage_input_never_stops_the_server_or_the_other_sessions(
        server, players, make_key):
    """Escape sequences no terminal sends, broken mouse reports, control characters: the
    session survives or is closed with a logged error; the server and others go on."""
    bob = await a_game_in_progress(server, players, make_key)
    noisy = players("eve")
    await noisy.connect(server.port, key=make_key())
    await noisy.wait_for("lobby")
    garbage = (
        b"\x1b[<0;9999;9999M\x1b[<64;-5;3m\x1b[M\xff\xff\xff"  # broken mouse reports
        b"\x1b]52;c;SGVsbG8=\x07\x1bP+q544e\x1b\\\x1b[?1;2c\x1b[999999999999999999999~"
        b"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26u"
        b"\x1b\x1b\x1b[[[[\x1bO\x1bOZ\x00\x01\x02\x04\x05\x06\x1c\x1d\x1e\x1f\x7f"
        b"\x1b[200~\xff\xfe unterminated paste"
    )
    for _ in range(20):
        noisy.send(garbage)
    noisy.send(b"\x1b[201~")
    await still_playing(bob)
    if not noisy.closed.is_set():
        noisy.press("escape", "escape")
    late = players("lee")
    await late.connect(server.port, key=make_key())
    await late.wait_for("lobby")


async def test_a_huge_paste_is_cut_and_the_session_goes_on(server, players, make_key):
    bob = await a_game_in_progress(server, players, make_key)
    paster = players("pat")
    await paster.connect(server.port, key=make_key())
    await paster.wait_for("lobby")
    paster.send(b"\x1b[200~" + b"diamant " * 500_000 + b"\x1b[201~")  # 4 MB
    await paster.wait_for("some of it was ignored")
    await still_playing(bob)
    paster.press("n")
    await paster.wait_for("Open a table")
    assert len(server.sessions) == 2


async def test_a_client_that_stops_reading_is_not_buffered_without_bound(
        server, players, make_key):
    """Frames are dropped while the client does not read; the screen is redrawn after."""
    bob = await a_game_in_progress(server, players, make_key)
    stalled = players("sam", size=(120, 40))
    await stalled.connect(server.port, key=make_key(), command="watch steady", window=16384)
    await stalled.wait_for("Round")
    session = next(s for s in server.sessions if s.identity.name == "sam")
    stalled.chan.pause_reading()  # the client stops reading; its SSH window closes
    # Each change of width makes the server draw the whole screen again, until the output
    # waiting for the client passes its bound (within a bounded number of changes: a
    # repaint of what the terminal shows already sends nothing).
    widths = itertools.cycle(range(100, 160))
    for _ in range(2000):
        if session.paused:
            break
        stalled.chan.change_terminal_size(next(widths), 40)
        await asyncio.sleep(0.02)
    await until(lambda: session.paused)
    for width in range(100, 160):
        stalled.chan.change_terminal_size(width, 40)
        await asyncio.sleep(0.01)
    await still_playing(bob)  # the others play on meanwhile
    assert session._chan.get_write_buffer_size() <= SessionLimits().output_high_water + 64 * 1024
    # The resizes' frames come as the app gets to them (later on a busy machine).
    await until(lambda: session._driver._dropped)
    assert session._chan.get_write_buffer_size() <= SessionLimits().output_high_water + 64 * 1024
    stalled.screen.reset()
    stalled.screen.resize(40, 159)
    stalled.chan.resume_reading()
    await until(lambda: not session.paused and not session._driver._dropped)
    # The whole screen is drawn again, at the last size: every seat is on show.
    await stalled.wait_for(lambda t: all(s.name in t for s in server.lobby.get("steady").seats)
                           and "Round" in t)


async def test_behind_the_enlarge_overlay_the_lobby_keys_do_nothing(server, players, make_key):
    """No game goes on in the lobby, and no key acts on a lobby nobody can see: Enter
    joins no table, `n` opens no dialog; once the terminal is large enough, they do."""
    table = server.lobby.create(TableSettings(name="open", seats=3, bots=("carry:20",),
                                              pace=0.02), "test")
    tim = players("tim", size=(60, 20))
    await tim.connect(server.port, key=make_key())
    text = await tim.wait_for("Please enlarge")
    assert "goes on" not in text
    tim.press("enter", "n", "w", "s")
    tim.resize(80, 24)  # after the keys: the session reads them first
    text = await tim.wait_for(r"open +Classic")
    assert "Open a table" not in text and "Waiting for the game" not in text
    assert [s.kind.value for s in table.seats] == ["empty", "empty", "bot"]
    tim.press("n")
    await tim.wait_for("Open a table")


@pytest.mark.parametrize("key, box, typed", [("n", "Open a table", "grotte"),
                                              ("r", "Resume code", "ABC")])
async def test_a_lobby_dialog_waits_behind_the_overlay_keeping_what_was_typed(
        server, players, make_key, key, box, typed):
    """Below 80x24 the lobby's dialogs (a new table, a resume code) are covered too, cut
    as they would be on a phone's 50 columns: the keys typed then do nothing (Enter opens
    no table), and what was typed before is still in the box once the terminal grows."""
    tim = players("tim")
    await tim.connect(server.port, key=make_key())
    await tim.wait_for("the lobby")
    tim.press(key)
    await tim.wait_for(box)
    tim.type(typed)
    await tim.wait_for(typed)
    tim.resize(50, 30)
    text = await tim.wait_for("Please enlarge")
    assert box not in text and "goes on" not in text
    tim.type("xy")
    tim.press("enter")
    tim.resize(80, 24)  # after the keys: the session reads them first
    text = await tim.wait_for(lambda t: box in t and "Please enlarge" not in t)
    assert typed in text and typed + "xy" not in text
    assert server.lobby.get("grotte") is None


COMMAND_SAYS = {  # what a few words of each language's answer to a bad command are
    "fr": ("Commande inconnue 'dance'", "commandes : play NOM", "--seats 9 : une table a de 3 à 8 places",
           "Diamant a besoin d'un terminal"),
    "es": ("Orden desconocida 'dance'", "órdenes: play NOMBRE", "--seats 9: una mesa tiene de 3 a 8 asientos",
           "Diamant necesita un terminal"),
    "uk": ("Невідома команда 'dance'", "команди: play НАЗВА", "--seats 9: за столом від 3 до 8 місць",
           "Для гри в Діамант потрібен термінал"),
}


@pytest.mark.parametrize("lang", sorted(COMMAND_SAYS))
async def test_what_is_wrong_with_a_command_is_said_in_the_clients_language(
        server, players, make_key, lang):
    """The client's LANG chooses the words of every answer to ``ssh host COMMAND``: an
    unknown command, a bad option, no terminal."""
    unknown, usage, seats, terminal = COMMAND_SAYS[lang]
    env = {"LANG": f"{lang}_XX.UTF-8"}
    said = []
    for command, pty in (("dance", True), ("play cave --seats 9", True), ("play cave", False)):
        person = players("ann")
        await person.connect(server.port, key=make_key(), command=command, pty=pty, env=env)
        await person.wait_closed()
        said.append(person.raw.decode())
    assert unknown in said[0] and usage in said[0], said[0]
    assert seats in said[1], said[1]
    assert terminal in said[2] and "ssh -t" in said[2], said[2]
    assert not any("Unknown command" in text or "needs a terminal" in text for text in said)


@pytest.mark.parametrize("lang", ["en", *sorted(COMMAND_SAYS)])
async def test_a_bad_command_without_a_terminal_is_told_what_is_wrong_first(
        server, players, make_key, lang):
    """``ssh -T host frobnicate``: the command would be refused with a terminal too, so the
    answer says what is wrong with it first, in the client's language, as a terminal would
    hear it, then how to connect; the command it shows is the lobby's, not the bad one."""
    unknown, usage, seats, terminal = COMMAND_SAYS.get(lang, (
        "Unknown command 'dance'", "commands: play NAME", "--seats 9: a table has 3 to 8 seats",
        "Diamant needs a terminal"))
    env = {"LANG": f"{lang}_XX.UTF-8"}
    said = []
    for command in ("dance", "play cave --seats 9"):
        person = players("ann")
        await person.connect(server.port, key=make_key(), command=command, pty=False, env=env)
        await person.wait_closed()
        said.append(person.raw.decode())
        assert person.chan.get_exit_status() == 2  # as for the same command with a terminal
    for text, wrong in ((said[0], unknown), (said[1], seats)):
        first, _, then = text.partition("\r\n")
        assert wrong in first, text
        assert terminal in then and then.rstrip().endswith(f"ann@127.0.0.1"), text
    assert usage in said[0]
    assert server.lobby.get("cave") is None


HELP_SAYS = {  # the first line of each language's list of commands, and its lobby line
    "en": ("Diamant over SSH: commands to type after the host", "no command     the lobby: "),
    "fr": ("Diamant par SSH : commandes à taper après l'hôte", "sans commande  le salon : "),
    "es": ("Diamant por SSH: órdenes para escribir después del host", "sin orden      la sala: "),
    "uk": ("Діамант через SSH: команди, які пишуть після адреси сервера", "без команди    зала: "),
}


@pytest.mark.parametrize("lang", sorted(HELP_SAYS))
async def test_help_lists_the_commands_as_a_normal_answer(server, players, make_key, lang):
    """``ssh host help`` (or ``--help``, ``-h``; with a terminal or without) is answered
    with the list of commands in the client's language and exit status 0, not as an
    unknown command; nothing else happens (no table, no lobby)."""
    title, lobby = HELP_SAYS[lang]
    env = {"LANG": f"{lang}_XX.UTF-8"}
    for command, pty in (("help", False), ("help", True), ("--help", False), ("-h", True)):
        person = players("ann")
        await person.connect(server.port, key=make_key(), command=command, pty=pty, env=env)
        await person.wait_closed()
        said = person.raw.decode()
        assert person.chan.get_exit_status() == 0, said
        lines = said.split("\r\n" if pty else "\n")
        assert lines.pop() == "" and not any("\r" in line for line in lines), said
        assert lines[0].startswith(title) and "ssh -t" in lines[0], said
        assert any(line.startswith("  play ") and "--seats 3-8" in line for line in lines)
        assert any(line.startswith("  watch ") for line in lines)
        assert any(line.startswith("  resume ") for line in lines)
        assert f"  {lobby}ssh -t -p {server.port} ann@127.0.0.1" in lines, said
        assert "dance" not in said and "\x1b" not in said  # no error, no screen drawn
        # Read in an 80-column terminal without a line wrapped.
        assert all(cell_len(line) <= 80 for line in lines), said
    assert not server.lobby.tables



@pytest.mark.parametrize("lang", sorted(HELP_SAYS))
async def test_help_on_a_phones_terminal_is_broken_between_words(server, players, make_key,
                                                                   lang):
    """On a phone's 50 columns the list of commands is broken between words, each line
    keeping its indentation, as every message a session ends with is: the terminal would
    break its long lines at its edge, mid-word ("relic-varian" above "t")."""
    person = players("ann", size=(50, 30))
    await person.connect(server.port, key=make_key(), command="help",
                         env={"LANG": f"{lang}_XX.UTF-8"})
    await person.wait_closed()
    said = person.raw.decode()
    assert person.chan.get_exit_status() == 0, said
    lines = said.split("\r\n")
    assert lines.pop() == "" and all(cell_len(line) <= 50 for line in lines), said
    told = help_text(Translator(lang), f"ssh -t -p {server.port} ann@127.0.0.1")
    assert [word for line in lines for word in line.split()] == told.split()
    assert any(line.startswith("  ") and "relic-variant" in line for line in lines), said


@pytest.mark.parametrize("env, encoding, says", [
    ({"LANG": "fr_FR.ISO-8859-1"}, "latin-1",
     "Diamant dessine son écran en UTF-8, mais votre locale indique ISO-8859-1"),
    ({"LANG": "es_ES.UTF-8", "LC_ALL": "es_ES.iso885915@euro"}, "iso8859-15",
     "Diamant dibuja su pantalla en UTF-8, pero tu locale indica iso885915"),
    ({"LANG": "en_US.UTF-8", "LC_CTYPE": "uk_UA.KOI8-U", "LC_MESSAGES": "uk_UA.UTF-8"},
     "koi8-u", "Діамант малює екран у UTF-8, а ваша локаль вказує KOI8-U"),
    ({"LANG": "en_GB.CP1252"}, "cp1252", "Diamant draws its screen in UTF-8, but your"),
])
async def test_a_locale_that_is_not_utf8_is_told_how_to_connect_in_its_own_charset(
        server, players, make_key, env, encoding, says):
    """A client whose locale names another character set (``fr_FR.ISO-8859-1``; LC_ALL
    before LC_CTYPE before LANG) has a terminal that would show every border, card and
    accent of the game's UTF-8 screen as garbage. It is told so before any screen is
    drawn, in its language and in its own character set, with the command to connect
    with a UTF-8 locale; no table is opened."""
    person = players("ann")
    await person.connect(server.port, key=make_key(), command="play cave", env=env)
    await person.wait_closed()
    text = bytes(person.raw).decode(encoding)
    assert b"\x1b[?1049h" not in person.raw  # no game screen was drawn
    assert says in " ".join(text.split()), text
    variable = next(name for name in ("LC_ALL", "LC_CTYPE", "LANG") if name in env)
    suggested = env[variable].split(".")[0] + ".UTF-8"
    assert f"{variable}={suggested} ssh -t" in text, text
    assert text.rstrip().endswith("play cave"), text
    assert person.chan.get_exit_status() == 1
    assert server.lobby.get("cave") is None


@pytest.mark.parametrize("env", [
    {"LANG": "C"}, {"LANG": "POSIX"}, {"LANG": "C.UTF-8"}, {"LANG": "fr_FR"},
    {"LANG": "fr_FR.ISO-8859-1", "LC_ALL": "fr_FR.utf8"}, {"LANG": "de_DE.UTF-8@euro"},
    {"LANG": "fr_FR.ISO-8859-1\x1b[2J"},
])
async def test_a_locale_that_names_no_other_charset_plays(server, players, make_key, env):
    """C, POSIX (whatever the terminal is), a UTF-8 locale overriding another, a locale
    naming no character set, or a value that is no locale at all: the lobby opens."""
    person = players("ann")
    await person.connect(server.port, key=make_key(), env=env)
    await person.wait_for("lobby|salon")
    await person.close()
