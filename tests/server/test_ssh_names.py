"""Names over SSH: what a person typed (user name, table name, a command's words) is shown
as typed in the lobby and its dialogs, and a user name SSH refuses is explained."""

from __future__ import annotations

import asyncio
import logging
import shlex
import shutil

import pytest
from asyncssh.saslprep import SASLPrepError, saslprep
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from diamant_tui.table import TableSettings
from harness import TerminalScreen
from diamant_server.lobby import TABLE_NAME
from diamant_server.lobby_screen import fit_name
from diamant_tui.ui.literal import printable


PRINTABLE = st.characters(categories=("L", "M", "N", "P", "S"))
"""What a person can type into a field: no control characters, no spaces."""
MARKUP = ["[/bold]", "[bold]x[/bold]", "[@click=app.quit]", "[red]r[/red]", "\\[b]"]


def squash(text: str) -> str:
    """``text`` without whitespace and toast edges (▌): lines may wrap, columns are padded;
    and without what a terminal cannot show (zero-width characters that combine with
    nothing, see TerminalScreen)."""
    return "".join(TerminalScreen.visible(text).replace("▌", " ").split())


def sendable(name: str) -> bool:
    """Whether an SSH client may send ``name`` as a user name (RFC 4013 SASLprep)."""
    try:
        return bool(saslprep(name).strip())
    except SASLPrepError:
        return False


def session_of(server, player_key) -> object:
    fingerprint = "key:" + player_key.get_fingerprint("sha256")
    return next(s for s in server.sessions if s.identity.key == fingerprint)


@settings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(user=st.one_of(st.sampled_from(MARKUP + ["漢字かな", "e\u0301\u0301", "☺ x"]),
                      st.text(PRINTABLE, min_size=1, max_size=20)).filter(sendable),
       listed=st.from_regex(TABLE_NAME, fullmatch=True),
       typed=st.one_of(st.sampled_from(MARKUP), st.text(PRINTABLE, min_size=1, max_size=20)))
@example(user="[/bold]", listed="漢字の洞窟", typed="[/bold]")
@example(user="[bold]x[/bold]", listed="café_ÅØ", typed="[@click=app.quit]")
@example(user="漢字かな", listed="0C", typed="ŃĲ®*𪟕ăı\U000E0129/¿k/")  # a variation selector
@example(user="'\"", listed="ŴġŲ", typed="촶𧤜$Ôû{/9İ缡\ua92bđä")  # a mark on a wide character
async def test_the_lobby_shows_names_as_typed(server, players, make_key, user, listed, typed):
    """The user name in the lobby's header, a table in the list, and a table name typed in
    the dialog (opening the table, or quoted in the message saying why it cannot)."""
    if listed not in server.lobby.tables:
        server.lobby.create(TableSettings(name=listed, seats=3, bots=("carry:20",)), "test")
    key = make_key()
    person = players(user)
    await person.connect(server.port, key=key)
    text = await person.wait_for(lambda t: "lobby" in t and "You are" in t)
    name = session_of(server, key).identity.name
    assert squash(f"You are {name} (known by your SSH key)") in squash(text), text
    # Whole when it fits the list's name column, else cut with an ellipsis.
    assert squash(fit_name(printable(listed))) in squash(text), text

    person.press("n")
    await person.wait_for("Open a table")
    person.type(typed)
    person.press("enter")
    wanted = typed.strip()
    if TABLE_NAME.fullmatch(wanted) and wanted not in server.lobby.tables:
        text = await person.wait_for("waiting for players")
        assert squash(f"Table {wanted}: waiting for players") in squash(text), text
    elif wanted in server.lobby.tables:
        text = await person.wait_for("already a table")
        assert squash(f"There is already a table called {wanted}: choose another name.") \
            in squash(text), text
    else:
        text = await person.wait_for("cannot name a table")
        assert squash(f"{wanted[:30]!r} cannot name a table") in squash(text), text
    await person.close()
    for name_ in (listed, wanted):
        table = server.lobby.tables.pop(name_, None)
        if table is not None:
            await table.close()


@pytest.mark.parametrize("word", ["[/bold]", "[bold]x[/bold]", "[@click=app.quit]"])
async def test_words_given_after_the_host_are_shown_as_typed(server, players, make_key, word):
    """A table to watch or play, or a resume code, given on the ssh command line: the
    message that says it cannot be done quotes it as typed (a code cut to 12 characters).
    A name no table can have is said to be one, with the rule, for watch as for play
    (watch said there was no table of that name, to check: as it was typed, it was)."""
    for command, says in ((f"watch {shlex.quote(word)}", f"{word!r} cannot name a table"),
                          (f"play {shlex.quote(word)}", f"{word!r} cannot name a table"),
                          (f"resume {shlex.quote(word)}", f"No seat is waiting for the code {word[:12]}:")):
        person = players("ann")
        await person.connect(server.port, key=make_key(), command=command)
        text = await person.wait_for(lambda t: "lobby" in t and squash(says) in squash(t))
        assert "wrong" not in text
        await person.close()


async def test_control_characters_in_a_command_never_reach_the_terminal(server, players, make_key):
    """``watch $'a\\x1b[2Jb'``: the message shows the name with the control characters
    written out; the escape sequence is not sent to the person's terminal."""
    person = players("ann")
    await person.connect(server.port, key=make_key(), command="watch 'a\x1b[2Jb\x07'")
    text = await person.wait_for("cannot name a table")
    assert "'a\\x1b[2Jb\\x07'" in text
    assert b"a\x1b[2Jb" not in person.raw and b"2Jb\x07" not in person.raw


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs the OpenSSH client")
async def test_a_user_name_ssh_refuses_is_explained(server, caplog):
    """asyncssh refuses user names that SASLprep forbids (most emoji) before the server
    sees them: the client reads asyncssh's reason, the server's log says what happened."""
    caplog.set_level(logging.INFO, logger="diamant_server.auth")
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
        "-p", str(server.port), "-l", "🙂", "127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 255
    assert b"Unassigned character" in err
    messages = [r.getMessage() for r in caplog.records if r.name == "diamant_server.auth"]
    assert any("SSH user name is not allowed by SASLprep" in m and "Unassigned" in m
               for m in messages), messages
    assert not server.sessions


async def test_user_names_are_cleaned_as_the_readme_says(server, players, make_key):
    """Compatibility forms are folded (NFKC), invisible characters dropped, runs of spaces
    collapsed, and the name cut to 16 characters."""
    for sent, kept in (("ｆｕｌｌ\u00adwidth", "fullwidth"), ("a  \u00a0 b", "a b"),
                       ("abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnop"),
                       ("ann\u3164", "ann"), ("a\u17b4nn\u2800", "ann")):
        key = make_key()
        person = players(sent)
        await person.connect(server.port, key=key)
        await person.wait_for("You are")
        assert session_of(server, key).identity.name == kept
        assert f"You are {kept} (known by your SSH key)" in person.text
        await person.close()


def test_the_readme_describes_the_user_names_asyncssh_accepts():
    """The rules the README gives (SASLprep, as asyncssh applies it to every user name):
    if a new asyncssh accepts emoji or mixed scripts, the README must say so."""
    assert saslprep("Zoë") == "Zoë" and saslprep("漢字") == "漢字" and saslprep("☺") == "☺"
    assert saslprep("ﬁ①") == "fi1"
    for refused, reason in (("🙂", "Unassigned"), ("a\tb", "Prohibited"), ("\ue000", "Prohibited"),
                            ("aשלום", "RandALCat")):
        with pytest.raises(SASLPrepError, match=reason):
            saslprep(refused)


async def test_watching_a_table_nobody_opened_says_to_check_its_name(server, players, make_key):
    """A name a table could have, but none has: there is no such table, check the name."""
    person = players("ann")
    await person.connect(server.port, key=make_key(), command="watch nosuch")
    text = await person.wait_for(lambda t: "There is no table called nosuch:" in squash_spaces(t))
    assert "cannot name a table" not in text


def squash_spaces(text: str) -> str:
    """``text``'s words with one space between each, wherever its lines were broken."""
    return " ".join(text.split())
