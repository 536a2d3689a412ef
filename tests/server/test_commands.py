"""The commands after the host, read one after another as joins come: each is read alone,
whatever came before it, and a bad one says what was wrong."""

import pytest

from diamant_server.commands import Command, CommandError, parse_command
from diamant_tui.engine.cards import Rules


def test_each_command_is_read_alone_whatever_came_before():
    assert parse_command("play den --seats 6 --bots 2 --rules relics") == Command(
        "play", "den", Rules.parse("relics"), 6, 2)
    # Nothing of the command before carries over: the defaults again.
    assert parse_command("play cave") == Command("play", "cave", Rules.CLASSIC, 4, 0)
    with pytest.raises(CommandError, match="--seats 9"):
        parse_command("play den --seats 9")
    with pytest.raises(CommandError, match="unrecognized arguments: --colour"):
        parse_command("play den --colour red")
    # A command after a refused one is read as it is.
    assert parse_command("PLAY hall --seats 3") == Command("play", "hall", Rules.CLASSIC, 3, 0)
    assert parse_command("watch den") == Command("watch", "den")


@pytest.mark.parametrize("text, says", [
    ("", "commands: play NAME"),
    ("play", "the following arguments are required: name"),
    ("play den --bots 4 --seats 4", "--bots 4: between 0 and 3"),
    ("play den --seats x", "invalid int value: 'x'"),
    ("play 'den", "cannot read the command"),
    ("dance den", "unknown command 'dance'"),
    ("resume", "resume takes one word"),
])
def test_a_bad_command_says_what_was_wrong(text, says):
    with pytest.raises(CommandError, match=says):
        parse_command(text)
