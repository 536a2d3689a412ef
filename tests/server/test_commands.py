"""The commands after the host, read one after another as joins come: each is read alone,
whatever came before it, and a bad one says what was wrong."""

import pytest

from diamant_server.commands import Command, CommandError, parse_command
from diamant_tui.i18n import CATALOGUES, Translator
from diamant_tui.engine.cards import Rules


def test_each_command_is_read_alone_whatever_came_before():
    assert parse_command("play den --seats 6 --bots 2 --rules relics") == Command(
        "play", "den", Rules.parse("relics"), 6, 2, chosen=True)
    # Nothing of the command before carries over: the defaults again.
    assert parse_command("play cave") == Command("play", "cave", Rules.CLASSIC, 4, 0)
    with pytest.raises(CommandError, match="--seats 9"):
        parse_command("play den --seats 9")
    with pytest.raises(CommandError, match="--colour red' is not understood"):
        parse_command("play den --colour red")
    # A command after a refused one is read as it is.
    assert parse_command("PLAY hall --seats 3") == Command("play", "hall", Rules.CLASSIC, 3, 0,
                                                           chosen=True)
    assert parse_command("watch den") == Command("watch", "den")


def test_private_sets_up_a_table_of_ones_own():
    """``--private``: the table, if the command opens it, is reached by its name only; like
    the other settings it needs a name, and it takes no value."""
    assert parse_command("play den --private") == Command("play", "den", private=True,
                                                          chosen=True)
    assert not parse_command("play den").private
    with pytest.raises(CommandError, match="--rules, --seats, --bots and --private set up"):
        parse_command("play --private")
    with pytest.raises(CommandError, match="--private takes no value"):
        parse_command("play den --private=yes")


def test_play_alone_is_play_now():
    """``play`` with no table named: a seat at the next game, as p in the lobby."""
    assert parse_command("play") == Command("play", "")
    assert parse_command("PLAY").play_now
    assert not parse_command("play den").play_now and not parse_command("watch den").play_now


@pytest.mark.parametrize("text", ["help", "--help", "-h", "HELP", "help play"])
def test_help_is_a_command_of_its_own(text):
    """``help``, ``--help`` and ``-h`` ask for the list of commands: not an unknown command."""
    assert parse_command(text) == Command("help", "")


@pytest.mark.parametrize("text, says", [
    ("", "commands: play NAME"),
    ("play --seats 5", "--bots and --private set up a new table: give its name"),
    ("play den --bots 4 --seats 4", "--bots 4: between 0 and 3"),
    ("play den --seats x", "--seats 'x': give a whole number"),
    ("play den --seats", "--seats needs a value"),
    ("play den --rules nope", "--rules 'nope': choose classic"),
    ("play 'den", "command cannot be read"),
    ("dance den", "Unknown command 'dance'"),
    ("resume", "resume takes one word"),
])
def test_a_bad_command_says_what_was_wrong(text, says):
    with pytest.raises(CommandError, match=says):
        parse_command(text)


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
@pytest.mark.parametrize("text", ["", "play --bots 1", "play den --seats", "play den --seats x",
                                  "play den --colour red", "play den --rules nope",
                                  "play den --seats 9", "play den --bots 4", "play 'den",
                                  "dance den", "watch", "resume a b"])
def test_every_answer_to_a_bad_command_has_words_in_each_language(lang, text):
    """Whatever is wrong, the answer is the language's own text, not the English one."""
    with pytest.raises(CommandError) as refused:
        parse_command(text)
    t = Translator(lang)
    said = refused.value.text(t)
    assert said != str(refused.value) and not said.startswith("command.")
    assert refused.value.key in CATALOGUES[lang]
