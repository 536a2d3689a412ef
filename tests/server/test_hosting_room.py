"""A public room's face: the server's name and message of the day in the lobby, shown as
the host wrote them, and the names nobody may log in under."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import TEST_CONFIG
from diamant_server.config import ConfigError, load
from diamant_server.server import GameServer, RefusedNames
from test_ssh_server import parse


@pytest.fixture
async def room(tmp_path):
    """A server with a name, a message of the day written with brackets that markup
    would eat, and the default refused names."""
    server = GameServer(replace(
        TEST_CONFIG, data_dir=tmp_path, server_name="Cave [b]club[/b]",
        motd="Welcome, [red]diggers[/red]!\nTables close at midnight."))
    await server.start()
    yield server
    await server.stop()


async def test_the_lobby_shows_the_servers_name_and_message_as_written(room, players,
                                                                      make_key):
    ann = players("ann", size=(100, 30))
    await ann.connect(room.port, key=make_key())
    text = await ann.wait_for("Tables close at midnight")
    lines = [line.strip() for line in text.splitlines()]
    title = lines.index("◆ Cave [b]club[/b] ◆ Diamant over SSH ◆ the lobby")
    assert lines[title + 1:title + 3] == ["Welcome, [red]diggers[/red]!",
                                          "Tables close at midnight."]
    # In another language, the title's own words change, the host's do not.
    ann.press("g")
    text = await ann.wait_for("le salon")
    assert "◆ Cave [b]club[/b] ◆ Diamant par SSH ◆ le salon" in text
    assert "Welcome, [red]diggers[/red]!" in text


async def test_without_a_name_the_lobby_has_its_usual_title(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    text = await ann.wait_for("the lobby")
    assert "◆ Diamant over SSH ◆ the lobby" in text


@pytest.mark.parametrize("name, lang, words", [
    ("root", "en_GB.UTF-8", "The name root is kept for the server"),
    ("ADMIN", "fr_FR.UTF-8", "Le nom ADMIN est réservé au serveur"),
    ("\u0410dmin", "es_ES.UTF-8", "El nombre \u0410dmin está reservado"),  # Cyrillic А
    ("ｓｙｓｏｐ", "uk_UA.UTF-8", "Ім'я sysop закріплене за сервером"),  # full width
    ("Di\u0430mant", "en_GB.UTF-8", "The name Di\u0430mant is kept"),  # Cyrillic а
])
async def test_a_refused_name_is_told_in_the_persons_language(room, players, make_key,
                                                             name, lang, words):
    """Before any app starts, with the command to come back under another name."""
    person = players(name)
    await person.connect(room.port, key=make_key(), env={"LANG": lang})
    await person.wait_closed()
    said = " ".join(person.raw.decode().split())
    assert words in said, said
    other = {"en": "yourname", "fr": "votrenom", "es": "tunombre", "uk": "ваше_імʼя"}[lang[:2]]
    assert said.endswith(f"ssh -p {room.port} {other}@127.0.0.1"), said
    assert not room.sessions or all(s.app is None for s in room.sessions)


async def test_a_name_that_only_starts_like_a_refused_one_may_play(room, players, make_key):
    for name in ("rooter", "admin2", "moderately"):
        person = players(name)
        await person.connect(room.port, key=make_key())
        await person.wait_for("the lobby")
        await person.close()


def test_refused_names_are_compared_by_what_they_look_like():
    refused = RefusedNames(("root", "admin"))
    for name in ("root", "ROOT", "Root", "\u0410dmin", "ａｄｍｉｎ",
                 "adrnin"):
        assert name in refused, name
    for name in ("rooter", "admins", "ann"):
        assert name not in refused, name


def test_the_room_settings_come_from_flags_files_and_the_environment(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text('server_name = "Cave club"\nmotd = """Welcome!\nBe kind."""\n'
                    'refused_names = ["ann", "bob"]\nlog_chat = true\n')
    config = load(parse(["--config", str(toml)]), {"DIAMANT_LOG_FORMAT": "JSON"})
    assert (config.server_name, config.motd, config.refused_name_list, config.log_chat,
            config.log_format) == ("Cave club", "Welcome!\nBe kind.", ("ann", "bob"), True,
                                   "json")
    config = load(parse(["--refused-names", "eve, mallory", "--log-chat", "no"]), {})
    assert config.refused_name_list == ("eve", "mallory") and config.log_chat is False
    assert load(parse([]), {}).refused_name_list == (
        "root", "admin", "administrator", "sysop", "moderator", "diamant", "server")


@pytest.mark.parametrize("argv, message", [
    (["--server-name", "x" * 41], "server_name: at most 40 characters, not 41"),
    (["--server-name", "Cave\x1b[2J"], "server_name: control characters are not allowed"),
    (["--motd", "hi\x07"], "motd: control characters are not allowed (line breaks are)"),
    (["--log-format", "xml"], "log_format: 'xml' is not one of text, json"),
    (["--metrics-port", "70000"], "metrics_port: 70000 is not between 0 and 65535"),
    (["--log-chat", "maybe"], "log_chat: 'maybe' is neither true nor false"),
])
def test_bad_room_settings_are_named(argv, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[")):
        load(parse(argv), {})


@pytest.mark.parametrize("lang", ["en_GB.UTF-8", "fr_FR.UTF-8", "es_ES.UTF-8", "uk_UA.UTF-8"])
async def test_the_command_given_with_a_refused_name_stands_whole_on_a_line(room, players,
                                                                          make_key, lang):
    """The command to come back under another name is on a line of its own, whole, in an
    80-column terminal, so that it is copied in one piece: broken after "ssh -p", its
    port and host went to the next line."""
    person = players("root")
    await person.connect(room.port, key=make_key(), env={"LANG": lang})
    await person.wait_closed()
    lines = [line.strip() for line in person.raw.decode().split("\r\n")]
    other = {"en": "yourname", "fr": "votrenom", "es": "tunombre", "uk": "ваше_імʼя"}[lang[:2]]
    assert f"ssh -p {room.port} {other}@127.0.0.1" in lines, lines
