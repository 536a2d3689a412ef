"""A record's ``meta`` (RECORD.md): written by the table, checked and kept by the reader,
never part of the replay; and record files that cannot overwrite one another."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from diamant_tui.cli import main
from diamant_tui.engine.errors import RecordError
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.record import (
    FORMAT, PERSON, game_to_record, read_record, record_meta, record_to_json,
)
from diamant_tui.table import Table, TableSettings
from diamant_tui.engine.view import Decision
from diamant_server.lobby import Lobby
from diamant_server.records import record_file_name, write_record
from diamant_server.storage import Storage

from playing import play_out

NAMES = ["ann", "bob", "cy"]
LEAVE_ALL = {"cards": ["T3"], "decisions": [{n: "leave" for n in NAMES}]}


def record(**extra) -> dict:
    """A finished game: five rounds in which everyone leaves after the first card."""
    return {"format": FORMAT, "rules": "classic", "players": NAMES,
            "rounds": [LEAVE_ALL] * 5, **extra}


META = {"table": "cave-1", "started": "2025-03-01T18:45:02Z", "ended": "2025-03-01T19:02:40Z",
        "seats": {"ann": "person", "bob": "risk", "cy": "carry:20"}, "seed": 7,
        "server": "diamant.example"}


def test_meta_is_read_checked_and_kept_with_keys_it_does_not_know():
    meta = {**META, "client": {"version": "9.9"}, "comment": "a later version's key"}
    replay = read_record(json.dumps(record(meta=meta)))
    assert replay.meta == meta
    assert replay.finished


def test_meta_never_changes_the_replay(tmp_path, capsys):
    """Not the seed, not the seats, not the table: only the cards and decisions count."""
    plain, described = tmp_path / "plain.json", tmp_path / "meta.json"
    plain.write_text(json.dumps(record()), encoding="utf-8")
    odd = {**META, "seed": 123456, "seats": {"ann": "expert", "bob": "expert", "cy": "person"},
           "players": ["x", "y", "z"]}
    described.write_text(json.dumps(record(meta=odd)), encoding="utf-8")
    assert main(["replay", str(plain), "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["replay", str(described), "--json"]) == 0
    assert capsys.readouterr().out == first
    assert json.loads(first)["scores"] == {"ann": 5, "bob": 5, "cy": 5}


@pytest.mark.parametrize("meta, words", [
    (["cave-1"], "meta must be a JSON object"),
    ({"table": 3}, "meta: table must be the table's name as text, not 3."),
    ({"started": "yesterday"}, "meta: started must be an ISO 8601 time in UTC"),
    ({"ended": "2025-03-01T19:02:40+02:00"}, "meta: ended must be an ISO 8601 time in UTC"),
    ({"started": "2025-03-01T18:45:02"}, "meta: started must be an ISO 8601 time in UTC"),
    ({"seats": ["person", "risk", "risk"]}, "meta: seats must be an object giving each player"),
    ({"seats": {"dan": "person"}}, "meta: seats names 'dan', who is not one of the players"),
    ({"seats": {"ann": 1}}, "meta: seats: ann's seat must be \"person\" or a computer player's"),
    ({"seed": "7"}, "meta: seed must be a whole number, not '7'."),
    ({"seed": True}, "meta: seed must be a whole number, not True."),
    ({"server": ["a"]}, "meta: server must be the server's name as text"),
])
def test_a_meta_of_the_wrong_shape_is_refused_with_a_clear_message(meta, words):
    with pytest.raises(RecordError) as error:
        read_record(json.dumps(record(meta=meta)))
    assert words in str(error.value)


def test_record_meta_writes_utc_times_to_the_second_and_leaves_out_the_unknown():
    started = datetime(2025, 3, 1, 19, 45, 2, 500, tzinfo=timezone.utc).astimezone()
    assert record_meta(table="cave", started=started) == {
        "table": "cave", "started": "2025-03-01T19:45:02Z"}
    with pytest.raises(ValueError):
        record_meta(started=datetime(2025, 3, 1))  # no time zone: which hour would it be?


async def _finished_table(**settings) -> Table:
    table = Table(TableSettings(**{"name": "den-2", "seats": 3, "bots": ("carry:20", "ev"),
                                   "pace": 0, "seed": 40, **settings}))
    ann = table.sit("ann", "key-ann")
    await play_out(ann, lambda view: Decision.LEAVE)
    return table


async def test_the_table_writes_its_name_times_seats_and_seed_into_the_record():
    before = datetime.now(timezone.utc).replace(microsecond=0)
    table = await _finished_table()
    try:
        written = table.record()
        meta = written["meta"]
        assert meta["table"] == "den-2"
        assert meta["seats"] == {"ann": PERSON, "Bruno": "carry:20", "Chiara": "ev"}
        assert meta["seed"] == 40
        started = datetime.fromisoformat(meta["started"])
        ended = datetime.fromisoformat(meta["ended"])
        assert before <= started <= ended <= datetime.now(timezone.utc)
        replay = read_record(record_to_json(written))
        assert replay.meta == meta and replay.finished
        table.rematch()
        assert table.record()["meta"]["seed"] == 41  # the rematch's own deck
        assert "ended" not in table.record()["meta"]
    finally:
        await table.close()


def test_record_file_names_keep_table_and_game_apart():
    when = datetime(2025, 3, 1, 18, 45, 2, tzinfo=timezone.utc)
    # Table "cave-1" game 12 and table "cave-11" game 2 once both became "...cave-1-12".
    a = record_file_name("cave-1", 12, when, "aaaaaa")
    b = record_file_name("cave-11", 2, when, "aaaaaa")
    assert a == "20250301T184502Z+cave-1+game12+aaaaaa.json"
    assert b == "20250301T184502Z+cave-11+game2+aaaaaa.json"
    assert a.split("+")[1:3] == ["cave-1", "game12"]
    assert record_file_name("../a/b", 1, when, "x") == "20250301T184502Z+.._a_b+game1+x.json"


def test_two_records_never_share_a_file_and_none_is_ever_half_written(tmp_path):
    folder = tmp_path / "records"
    first = write_record(folder, record(meta=META), table="cave-1", game=1)
    second = write_record(folder, record(meta=META), table="cave-1", game=1)
    assert first != second
    assert sorted(p.name for p in folder.iterdir()) == sorted([first.name, second.name])
    assert first.name.startswith("20250301T184502Z+cave-1+game1+")
    assert read_record(first.read_text(encoding="utf-8")).meta == META
    with pytest.raises(TypeError):
        write_record(folder, record(meta={"table": object()}), table="cave-1", game=2)
    assert len(list(folder.iterdir())) == 2, "no temporary or partial file is left behind"


async def test_the_lobby_keeps_a_game_saved_twice_as_one_game(tmp_path):
    """Saved twice (in progress, then again as the server stops), a game is still one
    game in the database, with its ``meta``."""
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, pace=0, storage=storage)
    table = lobby.create(TableSettings(name="a-1", seats=3, bots=("cards:2",) * 3, pace=5), "t")
    table.start()
    try:
        first = await lobby.save_game(table)
        second = await lobby.save_game(table)
        assert first == second and first is not None
        [game] = await storage.games()
        assert (game.id, game.table, game.players) == (first, "a-1", tuple(table.record()["players"]))
        assert read_record(json.dumps(await storage.game_record(first))).meta["table"] == "a-1"
    finally:
        await table.close()
        storage.close()


def test_seats_when_given_name_every_player():
    """RECORD.md: ``seats`` is per player, so when it is there every player has a seat."""
    with pytest.raises(RecordError) as error:
        read_record(json.dumps(record(meta={"seats": {"ann": "person"}})))
    assert str(error.value) == (
        'meta: seats gives no seat for bob, cy; it names each player with "person" '
        "or a computer player's name."
    )


def test_the_writer_writes_only_a_meta_the_reader_accepts():
    """What game_to_record writes, read_record reads: a meta of the wrong shape is refused
    when the record is made, not later by whoever reads it."""
    game = Game(GameConfig(NAMES, "classic"), seed=1)
    with pytest.raises(RecordError, match="meta: seed must be a whole number, not True."):
        game_to_record(game, {"seed": True})
    with pytest.raises(RecordError, match="meta: seats gives no seat for bob, cy"):
        game_to_record(game, record_meta(seats={"ann": PERSON}))
    with pytest.raises(RecordError, match="meta: started must be an ISO 8601 time in UTC"):
        game_to_record(game, {"started": "2025-03-01 18:45"})
    meta = {**record_meta(table="t", seats=dict.fromkeys(NAMES, PERSON), seed=1), "later": [1]}
    assert read_record(record_to_json(game_to_record(game, meta))).meta == meta
