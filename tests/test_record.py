"""Game records (RECORD.md): writing them, replaying them, and refusing every bad one.

Records are written here in a short hand: ``rnd("T9 H:snakes", "CCC")`` is a round whose
cards are T9 and H:snakes, with one decision string per step (one letter per seat:
C continue, L leave, . in camp so no entry).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from diamant_tui.engine.cards import Treasure
from diamant_tui.cli import main
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.errors import RecordError
from diamant_tui.engine.record import FORMAT, game_to_record, read_record, record_to_json, replay_record
from diamant_tui.engine.cards import parse_card
from diamant_tui.engine.view import Decision, Phase

NAMES = ["ann", "bob", "cy"]
WORDS = {"C": "continue", "L": "leave"}
EVERYONE_LEAVES = ("T3", "LLL")  # 1 ruby each, banked at once


def rnd(cards: str, *decisions: str, names=NAMES) -> dict:
    """A round in short hand."""
    return {
        "cards": cards.split(),
        "decisions": [
            {names[s]: WORDS[c] for s, c in enumerate(letters) if c != "."} for letters in decisions
        ],
    }


def record(rounds: list[dict], rules: str = "classic", players=NAMES, **extra) -> dict:
    return {"format": FORMAT, "rules": rules, "players": list(players), "rounds": rounds, **extra}


def quick_rounds(count: int) -> list[dict]:
    return [rnd(*EVERYONE_LEAVES) for _ in range(count)]


# The example of RECORD.md, with four more rounds in which everyone leaves at once.
EXAMPLE_ROUND = rnd("T9 H:snakes R T4 H:snakes", "CCC", "LCC", ".CC", ".CL")


def example(**extra) -> dict:
    return record([EXAMPLE_ROUND, *quick_rounds(4)], rules="relics", **extra)


EXAMPLE_RESULT = {"scores": {"ann": 7, "bob": 4, "cy": 14}, "winners": ["cy"]}


# -- reading good records -------------------------------------------------------------------


def test_replaying_a_finished_game_gives_its_outcome():
    """Scores are chests plus relic points; the winners are all tied leaders."""
    replay = replay_record(example(result=EXAMPLE_RESULT))
    assert replay.finished
    assert replay.outcome() == {
        "scores": {"ann": 7, "bob": 4, "cy": 14},
        "winners": ["cy"],
        "chests": {"ann": 7, "bob": 4, "cy": 9},
        "relics": {"ann": 0, "bob": 0, "cy": 5},
    }


def test_the_result_is_optional_on_input():
    """result (optional on input)."""
    assert replay_record(example()).outcome()["scores"] == EXAMPLE_RESULT["scores"]


def test_an_unfinished_game_counts_only_what_is_banked():
    """Its scores count only what is banked (chests and relics taken), not the rubies
    still carried in the cave."""
    replay = replay_record(record([rnd("T9 T15", "LCC")]))  # bob and cy carry 3 + 7
    assert not replay.finished
    assert replay.outcome() == {
        "scores": {"ann": 3, "bob": 0, "cy": 0},
        "winners": ["ann"],
        "chests": {"ann": 3, "bob": 0, "cy": 0},
        "relics": {"ann": 0, "bob": 0, "cy": 0},
    }
    assert replay.game.carried == [0, 10, 10]


@pytest.mark.parametrize(
    "rounds",
    [
        [],  # cut short before the first card
        [rnd("T9")],  # stops while the players choose
        [rnd(*EVERYONE_LEAVES), rnd("")],  # the next round has not shown a card
        quick_rounds(4) + [rnd("T1 T2", "CCC")],
    ],
)
def test_an_unfinished_game_may_stop_in_its_last_round(rounds):
    """An unfinished game has fewer than 5 rounds or a last round that stops after some step."""
    assert not replay_record(record(rounds)).finished


def test_the_example_of_the_record_format_is_a_game_cut_short():
    """The RECORD.md example holds one round, so it is an unfinished game: with its result
    it is refused; without it, the replay banks ann 3 and cy 5 + a relic worth 5."""
    text = json.dumps(record([EXAMPLE_ROUND], rules="relics", result={
        "scores": {"ann": 3, "bob": 0, "cy": 12}, "winners": ["cy"]}))
    with pytest.raises(RecordError, match="a result is given but the game is unfinished"):
        read_record(text)
    outcome = replay_record(record([EXAMPLE_ROUND], rules="relics")).outcome()
    assert outcome["scores"] == {"ann": 3, "bob": 0, "cy": 10}


# -- writing records --------------------------------------------------------------------------


def test_a_game_is_written_as_its_cards_and_decisions_by_name():
    """cards: the cards revealed in that round, in order; decisions: one entry after each
    revealed card that did not end the round, for exactly the players still in the cave."""
    game = Game(GameConfig(NAMES, "relics"), seed=1)
    for card, choices in [("T9", "CCC"), ("H:snakes", "LCC"), ("R", ".CC"), ("T4", ".CL")]:
        game.reveal(parse_card(card))
        game.apply_decisions({NAMES[s]: WORDS[c] for s, c in enumerate(choices) if c != "."})
    game.reveal(parse_card("H:snakes"))
    assert game_to_record(game) == record([EXAMPLE_ROUND], rules="relics")


def test_a_finished_game_is_written_with_its_result():
    """result: final scores per player and the winners (all tied leaders), only when finished."""
    game = Game(GameConfig(NAMES, "classic"), seed=1)
    for number in range(5):
        if number:
            game.start_next_round()
        game.reveal(Treasure(3))
        game.apply_decisions({s: Decision.LEAVE for s in range(3)})
    written = game_to_record(game)
    assert written == record(quick_rounds(5), result={
        "scores": {"ann": 5, "bob": 5, "cy": 5}, "winners": ["ann", "bob", "cy"]})
    assert json.loads(record_to_json(written)) == written


def test_a_pending_turn_and_a_round_without_cards_are_not_written():
    """Only what was revealed is stored; a choice not yet revealed is secret."""
    game = Game(GameConfig(NAMES, "classic"), seed=1)
    game.reveal(Treasure(3))
    game.submit("ann", Decision.LEAVE)
    assert game_to_record(game)["rounds"] == [rnd("T3")]
    game.apply_decisions({"ann": "leave", "bob": "leave", "cy": "leave"})
    game.start_next_round()
    assert game_to_record(game)["rounds"] == [rnd(*EVERYONE_LEAVES)]


@pytest.mark.parametrize("rules", ["classic", "relics", "relic-variant"])
@pytest.mark.parametrize("seed", range(5))
def test_a_written_record_replays_to_the_same_result(rules, seed):
    """Replaying the record of any game gives its result back exactly."""
    game = Game(GameConfig(NAMES + ["dee"], rules), seed=seed)
    while not game.over:
        if game.phase is Phase.DECISION:
            game.apply_decisions({s: game.rng.choice(list(Decision)) for s in game.players_in_cave})
        else:
            game.reveal_random()
    replay = read_record(record_to_json(game_to_record(game)))
    assert replay.finished and replay.game.scores() == game.scores()
    assert replay.outcome()["winners"] == [game.names[s] for s in game.winners()]


# -- refusing bad records: each error names the round and the step ------------------------------

WITH_DISASTER = rnd("H:lava T5 H:lava", "CCC", "CCC")
BAD_RECORDS = [
    # a card that is not in the deck at that moment
    (record([rnd("T1", "LLL"), rnd("R5 R7 R8", "CCC", "CCC", "CCC")], rules="relic-variant"),
     "round 2, step 3: R8 is not in the deck yet: relic-variant adds it in round 3."),
    (record([rnd("R5 T1", "LCC", ".LL"), rnd("R5", "CCC")], rules="relic-variant"),
     "round 2, step 1: R5 is not in the deck: it was revealed in round 1 and left the game."),
    (record([rnd("H:snakes H:snakes", "CCC"), rnd("H:snakes H:snakes", "CCC"),
             rnd("H:snakes H:snakes", "CCC")]),
     "round 3, step 2: H:snakes is not in the deck: of its 3 cards, 2 were removed after "
     "disasters (rounds 1, 2) and 1 is on this round's path."),
    (record([rnd("T1 T2 T3 T4 T5 T5 T7 T7 T9 T11 T11 T13 T14 T15 T17 T17", *["CCC"] * 16)]),
     "round 1, step 16: T17 is not in the deck: the only T17 is already on this round's path."),
    (record([rnd("T5 T5 T5", "CCC", "CCC", "CCC")]),
     "round 1, step 3: T5 is not in the deck: all 2 T5 cards are already on this round's path."),
    (record([rnd("T16", "CCC")]),
     "round 1, step 1: T16 is not a treasure card; treasure values are "
     "1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17."),
    (record([rnd("R", "LCC")], rules="relic-variant"),
     "round 1, step 1: R is not a relic-variant relic; they are R5, R7, R8, R10, R12."),
    (record([rnd("R5", "LCC")], rules="relics"),
     "round 1, step 1: R5 is not a card of the relics rule set, whose relics are written R."),
    (record([rnd("T1 R", "CCC", "LCC")]),
     "round 1, step 2: R is not in the deck: the classic rule set has no relics."),
    (record([rnd("R7", "CCC")]),
     "round 1, step 1: R7 is not in the deck: the classic rule set has no relics."),
    (record([rnd(*EVERYONE_LEAVES)] + [rnd("R R T1", "CCC", "LCC", ".LL")] * 3, rules="relics"),
     "round 4, step 2: R is not in the deck: all 5 relics have been revealed already."),
    (record([rnd("H:wolves", "CCC")]),
     "round 1, step 1: unknown hazard 'H:wolves'; hazard types are spiders, snakes, lava, "
     "boulders, rams."),
    (record([{"cards": ["T1", 7], "decisions": [{"ann": "continue", "bob": "continue",
                                                   "cy": "continue"}]}]),
     "round 1, step 2: 7 is not a card code such as T9, H:snakes, R or R7."),
    # decisions
    (record([rnd("T1 T2", "LCC", "LCC")]),
     "round 1, step 2: ann is in camp; only players in the cave decide."),
    (record([rnd("T1 T2", "LCC", ".C.")]),
     "round 1, step 2: no decision for cy, still in the cave."),
    (record([rnd("T1", "CC")]), "round 1, step 1: no decision for cy, still in the cave."),
    (record([{"cards": ["T1"], "decisions": [{"ann": "stay", "bob": "leave", "cy": "leave"}]}]),
     "round 1, step 1: ann's decision 'stay' is not 'continue' or 'leave'."),
    (record([{"cards": ["T1"], "decisions": [{"ann": None, "bob": "leave", "cy": "leave"}]}]),
     "round 1, step 1: ann's decision None is not 'continue' or 'leave'."),
    (record([{"cards": ["T1"], "decisions": [{"zed": "leave", "bob": "leave", "cy": "leave"}]}]),
     "round 1, step 1: unknown player 'zed'; players are ann, bob, cy."),
    (record([{"cards": ["T1"], "decisions": [["leave", "leave", "leave"]]}]),
     "round 1, step 1: the decisions must be an object of player names to choices."),
    # rounds that go on, or stop, when they should not
    (record([rnd("H:lava T5 H:lava T9", "CCC", "CCC")]),
     "round 1, step 4: the round ended in disaster at step 3 (a second H:lava); "
     "no card may follow."),
    (record([rnd("H:lava T5 H:lava", "CCC", "CCC", "CCC")]),
     "round 1, step 3: a decision after the disaster that ended the round."),
    (record([rnd("T1 T2", "LLL", "CCC")]),
     "round 1, step 2: everyone left at step 1, so the round is over; no card may follow."),
    (record([rnd("T1", "LLL", "CCC")]),
     "round 1, step 2: a decision after everyone left at step 1."),
    (record([rnd("T1 T2", "CCC", "CCC", "CCC")]),
     "round 1, step 3: a decision with no card revealed before it."),
    (record([rnd("T1 T2 T3", "CCC", "", "LLL")]),
     "round 1, step 2: no decision for ann, bob, cy, still in the cave."),
    (record([rnd("T1 T2", "CCC"), rnd(*EVERYONE_LEAVES)]),
     "round 1 stops after step 2 with ann, bob, cy still in the cave; only the "
     "last round of an unfinished game may stop early."),
    (record([rnd("T1 T2 T3", "CCC"), rnd(*EVERYONE_LEAVES)]),
     "round 1, step 2: no decisions after T2, yet the round goes on."),
    (record([rnd("T1", "CLC"), rnd(*EVERYONE_LEAVES)]),
     "round 1 stops after step 1 with ann, cy still in the cave; only the last round of an "
     "unfinished game may stop early."),
    (record([rnd(""), rnd(*EVERYONE_LEAVES)]),
     "round 1 stops after step 0 with ann, bob, cy still in the cave; only the last round of "
     "an unfinished game may stop early."),
    (record(quick_rounds(6)), "the record has 6 rounds; a game has 5."),
    # the table
    (record([], rules="expert"),
     "unknown rule set 'expert'; choose one of classic, relics, relic-variant."),
    (record([], rules=None),
     "unknown rule set None; choose one of classic, relics, relic-variant."),
    (record([], players=["ann", "bob"]), "2 players: Diamant is for 3 to 8 players."),
    (record([], players=[f"p{i}" for i in range(9)]), "9 players: Diamant is for 3 to 8 players."),
    (record([], players=["ann", "bob", "ann"]),
     "duplicate player name 'ann': names must be distinct."),
    (record([], players=["ann", "bob", ""]), "players must be a list of non-empty player names."),
    ({**record([]), "players": "ann, bob, cy"},
     "players must be a list of non-empty player names."),
    # the shape of the record
    ({"rules": "classic", "players": NAMES, "rounds": []}, "the record has no 'format'."),
    (record([], format="diamant-record/2"), "format 'diamant-record/2' is not 'diamant-record/1'."),
    (record([], date="today"),
     "unknown key 'date' in the record; allowed: format, rules, players, meta, rounds, result."),
    (["diamant-record/1"],
     "the record must be a JSON object with keys format, rules, players, meta, rounds, result."),
    (record({"cards": []}), "rounds must be a list of rounds."),
    (record([["T1"]]), "round 1 must be a JSON object with keys cards, decisions."),
    (record([{"cards": ["T1"]}]), "round 1 has no 'decisions'."),
    (record([{"cards": "T1", "decisions": []}]), "round 1: cards must be a list of card codes."),
    (record([{"cards": ["T1"], "decisions": {}}]),
     "round 1: decisions must be a list, one entry per step."),
    # the result
    (example(result={"scores": {"ann": 7, "bob": 4, "cy": 12}, "winners": ["cy"]}),
     "result: the score of cy is 12 in the record but 14 when the game is replayed."),
    (example(result={"scores": {"ann": 7, "bob": 4, "cy": 14}, "winners": ["ann", "cy"]}),
     "result: the winners are ['ann', 'cy'] in the record but ['cy'] when the game is "
     "replayed (all tied leaders win)."),
    (example(result={"scores": {"ann": 7, "bob": 4, "cy": 14}, "winners": ["cy", "cy"]}),
     "result: the winners are ['cy', 'cy'] in the record but ['cy'] when the game is "
     "replayed (all tied leaders win)."),
    (example(result={"scores": {"ann": 7, "bob": 4, "cy": True}, "winners": ["cy"]}),
     "result: scores must map each player's name to a whole number."),
    (example(result={"scores": {"ann": 7, "bob": 4}, "winners": ["cy"]}),
     "result: scores must name exactly the players ann, bob, cy."),
    (example(result={"scores": EXAMPLE_RESULT["scores"]}), "the result has no 'winners'."),
    (example(result=None),
     "the result must be a JSON object with keys scores, winners."),
    (record(quick_rounds(4), result=EXAMPLE_RESULT),
     "a result is given but the game is unfinished (it stops in round 4, step 1); only a "
     "finished game has a result."),
]


@pytest.mark.parametrize(("bad", "message"), BAD_RECORDS)
def test_a_bad_record_is_refused_with_a_clear_message(bad, message):
    """Each is a clear error naming the round and step, never a crash and never a silent fix."""
    with pytest.raises(RecordError) as caught:
        read_record(json.dumps(bad))
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{",
         "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2."),
        ("", "not valid JSON: Expecting value at line 1 column 1."),
        ('{"format": "diamant-record/1", "format": "x"}',
         "the key 'format' appears twice in one JSON object."),
        ('[NaN]', "not valid JSON for a record: NaN is not a number."),
        ("[" * 100_000, "not valid JSON for a record: it is nested too deeply."),
    ],
)
def test_text_that_is_not_a_json_record_is_refused(text, message):
    """Bad JSON is a clear error too."""
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert str(caught.value) == message


def test_a_huge_bad_value_is_named_briefly():
    """A message names the bad value without repeating all of it."""
    bad = record([{"cards": ["T1"], "decisions": [{"ann": "x" * 10_000, "bob": "leave",
                                                    "cy": "leave"}]}])
    with pytest.raises(RecordError) as caught:
        read_record(json.dumps(bad))
    assert len(str(caught.value)) < 120


# -- the command ----------------------------------------------------------------------------------


def write(tmp_path, content, name="game.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_replay_json_prints_the_outcome(tmp_path, capsys):
    """diamant replay FILE --json prints {"scores", "winners", "chests", "relics"}."""
    assert main(["replay", write(tmp_path, example(result=EXAMPLE_RESULT)), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == replay_record(example()).outcome() and err == ""


def test_replay_prints_a_readable_summary(tmp_path, capsys):
    """With --summary: scores, winners, and per round how it ended."""
    assert main(["replay", write(tmp_path, example()), "--summary"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "relics, 3 players (ann, bob, cy): finished.",
        "Round 1: disaster at card 5 (the snakes again); banked: ann 3, bob 0, cy 10.",
        "Round 2: everyone left after 1 card; banked: ann 1, bob 1, cy 1.",
        "Round 3: everyone left after 1 card; banked: ann 1, bob 1, cy 1.",
        "Round 4: everyone left after 1 card; banked: ann 1, bob 1, cy 1.",
        "Round 5: everyone left after 1 card; banked: ann 1, bob 1, cy 1.",
        "Scores:",
        "  cy    14 (chest 9, relics 5)",
        "  ann    7",
        "  bob    4",
        "Winner: cy",
    ]


def test_replay_summary_of_an_unfinished_game(tmp_path, capsys):
    """Unfinished games: scores count only what is banked."""
    assert main(["replay", write(tmp_path, record([rnd("T9 T15", "LCC")])), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "unfinished, 0 of 5 rounds over" in out
    assert "Round 1: stops after card 2 with bob, cy still in the cave." in out
    assert "Scores count only what is banked" in out and out.rstrip().endswith("Leading: ann")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (record(quick_rounds(6)), "the record has 6 rounds; a game has 5."),
        (b"\xff\xfe{}", "not a record: the file is not UTF-8 text."),
        ("{", "not valid JSON"),
    ],
)
def test_replay_of_a_bad_record_exits_with_the_error(tmp_path, capsys, content, message):
    """It exits non-zero with the error on standard error when the record is invalid."""
    path = write(tmp_path, content)
    assert main(["replay", path, "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"diamant replay: {path}: {message}")


def test_replay_of_a_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing.json"), "--summary"]) == 1
    assert "cannot read the file: No such file or directory." in capsys.readouterr().err


def test_the_diamant_command_reports_a_wrong_result_without_a_traceback(tmp_path):
    """The installed command, run as a person would: one line on stderr saying what is
    wrong and what to do, exit status 1."""
    bad = example(result={"scores": {"ann": 7, "bob": 4, "cy": 13}, "winners": ["cy"]})
    command = [sys.executable, "-m", "diamant_tui", "replay", write(tmp_path, bad), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().endswith(
        "result: the score of cy is 13 in the record but 14 when the game is replayed. "
        "Choose a game record saved by diamant (the diamant-record/1 format)."
    )
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_replay_reads_standard_input(tmp_path):
    """FILE may be -, for a record piped in."""
    command = [sys.executable, "-m", "diamant_tui", "replay", "-", "--json"]
    done = subprocess.run(command, input=json.dumps(example()), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["cy"]
