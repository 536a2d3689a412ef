"""Properties of every game: random games of all rule sets, played to the end or cut short.

Each property quotes the rule (RULES.md) it checks. Scores are also recomputed from the
game record by a small independent scorer written from RULES.md alone.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from diamant_tui.engine.cards import VARIANT_RELIC_VALUES, HazardType, Relic, Rules, Treasure
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.events import DecisionsRevealed, Disaster, PlayerLeft, RoundEnded
from diamant_tui.engine.record import game_to_record, read_record, record_to_json
from diamant_tui.engine.view import Decision, Phase

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


@st.composite
def games(draw):
    """A game set up at random, and how its players will play."""
    rules = draw(st.sampled_from(list(Rules)))
    players = draw(st.integers(3, 8))
    seed = draw(st.integers(0, 2**32))
    # One leaning per seat, from "never leaves" to "leaves at once".
    leaning = draw(st.lists(st.floats(0, 1), min_size=players, max_size=players))
    return Game(GameConfig(NAMES[:players], rules), seed=seed), random.Random(seed), leaning


def play(game: Game, rng: random.Random, leaning: list[float], check=None, steps=10_000):
    """Play up to ``steps`` steps (to the end by default), calling ``check`` after each."""
    for _ in range(steps):
        if game.over:
            break
        if game.phase is Phase.DECISION:
            game.apply_decisions(
                {s: Decision.LEAVE if rng.random() < leaning[s] ** 3 else Decision.CONTINUE
                 for s in game.players_in_cave}
            )
        elif game.phase is Phase.ROUND_OVER:
            game.start_next_round()  # a step of its own, so checks see each round's start
        else:
            assert game.reveal_outcomes(), "the deck never runs out while a player is in the cave"
            game.reveal_random()
        if check:
            check(game)
    return game


@settings(max_examples=150, deadline=None)
@given(games())
def test_rubies_are_conserved(setup):
    """On the path + carried + in chests + returned or lost = treasure revealed so far."""

    def check(game: Game) -> None:
        revealed = sum(c.value for h in game.history for c in h.cards if isinstance(c, Treasure))
        returned = sum(e.rubies_returned for e in game.events if isinstance(e, RoundEnded))
        lost = sum(n for e in game.events if isinstance(e, Disaster) for _, n in e.losses)
        on_path = 0 if game.phase in (Phase.ROUND_OVER, Phase.OVER) else sum(
            pc.rubies for pc in game.path
        )
        assert on_path + sum(game.carried) + sum(game.chest) + returned + lost == revealed

    play(*setup, check=check)


@settings(max_examples=150, deadline=None)
@given(games())
def test_hazard_removals_carry_into_later_rounds_and_the_deck_never_runs_out(setup):
    """One card of the disaster's type is removed from the game for good; at most 4 can be
    removed before round 5, so the deck never runs out while a player is in the cave."""

    def check(game: Game) -> None:
        if game.phase is Phase.REVEAL and game.step == 0:
            removed = Counter(r.disaster for r in game.round_results if r.disaster)
            counts = game.view_for(0).deck_counts
            assert {h: counts.get(f"H:{h.value}", 0) for h in HazardType} == {
                h: 3 - removed[h] for h in HazardType
            }
            assert len(game.hazards_removed) == sum(removed.values()) <= game.round - 1
            assert all(removed[h] <= 2 for h in HazardType), "one card of a type cannot go"

    play(*setup, check=check)


@settings(max_examples=200, deadline=None)
@given(games())
def test_relic_values_over_the_whole_game(setup):
    """relics: the 1st to 3rd relics taken are worth 5, the 4th and 5th 10, counted one by
    one. relic-variant: printed values, one relic added per round lowest first, relics
    never revealed stay in the deck."""
    game, rng, leaning = setup
    revealed: list[Relic] = []

    def check(game: Game) -> None:
        revealed[:] = [c for h in game.history for c in h.cards if isinstance(c, Relic)]
        if game.rules is Rules.RELIC_VARIANT and game.phase is Phase.REVEAL and game.step == 0:
            added = [Relic(v) for v in VARIANT_RELIC_VALUES[: game.round]]
            expected = sorted(r.code for r in added if r not in revealed)
            assert sorted(c.code for c in game.deck if isinstance(c, Relic)) == expected

    play(game, rng, leaning, check=check)
    taken = [(r, v) for e in game.events if isinstance(e, PlayerLeft) for r, v in e.relics]
    if game.rules is Rules.RELICS:
        assert [v for _, v in taken] == [5, 5, 5, 10, 10][: len(taken)]
    elif game.rules is Rules.RELIC_VARIANT:
        assert all(v == r.value for r, v in taken)
    else:
        assert not revealed and not taken
    assert sum(map(sum, game.relics)) == sum(v for _, v in taken)
    if game.rules is Rules.RELIC_VARIANT:
        assert len(set(revealed)) == len(revealed), "a relic revealed leaves the game"
    assert len(revealed) <= 5


@settings(max_examples=200, deadline=None)
@given(games())
def test_simultaneous_leavers_take_no_relic(setup):
    """Only when k = 1 does that player take all relics on the path. With k >= 2 nobody
    takes them and they stay on the path."""
    game, rng, leaning = setup
    while not game.over:
        before = sum(1 for pc in game.path if isinstance(pc.card, Relic) and not pc.taken)
        deciding = game.phase is Phase.DECISION
        start = len(game.events)
        play(game, rng, leaning, steps=1)
        if not deciding:
            continue
        new = game.events[start:]
        turn = next(e for e in new if isinstance(e, DecisionsRevealed))
        took = [len(e.relics) for e in new if isinstance(e, PlayerLeft)]
        if len(turn.leaving) == 1:
            assert took == [before]
        else:
            assert sum(took) == 0
            showing = [pc for pc in game.path if isinstance(pc.card, Relic) and not pc.taken]
            assert len(showing) == before


@settings(max_examples=150, deadline=None)
@given(games())
def test_tied_leaders_share_the_victory(setup):
    """Highest score wins; tied players share the victory (no tie-breaker)."""
    game = play(*setup)
    best = max(game.scores())
    scores = game.scores()
    assert game.over and game.winners() == tuple(s for s, v in enumerate(scores) if v == best)
    assert scores == tuple(game.chest[s] + sum(game.relics[s]) for s in range(len(game.names)))


@settings(max_examples=200, deadline=None)
@given(games(), st.none() | st.integers(0, 150))
def test_the_record_replays_to_the_same_result(setup, cut):
    """write -> read -> replay gives back the same scores, chests and relics, for finished
    games and for games cut short at any step (which count only what is banked)."""
    game = play(*setup, steps=10_000 if cut is None else cut)
    written = game_to_record(game)
    replay = read_record(record_to_json(written))
    assert replay.finished == game.over and ("result" in written) == game.over
    assert replay.outcome() == {
        "scores": dict(zip(game.names, game.scores())),
        "winners": [game.names[s] for s in game.winners()],
        "chests": dict(zip(game.names, game.chest)),
        "relics": {n: sum(game.relics[s]) for s, n in enumerate(game.names)},
    }
    assert replay.outcome()["scores"] == reference_scores(written)
    assert game_to_record(replay.game) == written


def reference_scores(record: dict) -> dict[str, int]:
    """Scores from a record by the rules of RULES.md, independently of the engine."""
    names, rules = record["players"], record["rules"]
    banked = dict.fromkeys(names, 0)
    relics_taken = 0
    for round_ in record["rounds"]:
        inside, carried, on_path = list(names), dict.fromkeys(names, 0), 0
        relics: list[str] = []
        hazards: set[str] = set()
        for step, code in enumerate(round_["cards"]):
            if code.startswith("T"):
                share, rest = divmod(int(code[1:]), len(inside))
                for n in inside:
                    carried[n] += share
                on_path += rest
            elif code.startswith("H:"):
                if code in hazards:
                    break  # disaster: what is carried is lost
                hazards.add(code)
            else:
                relics.append(code)
            if step >= len(round_["decisions"]):
                break
            leavers = [n for n in inside if round_["decisions"][step][n] == "leave"]
            if not leavers:
                continue
            share = on_path // len(leavers)
            on_path -= share * len(leavers)
            for n in leavers:
                banked[n] += carried[n] + share
                inside.remove(n)
            if len(leavers) == 1:
                for code in relics:
                    if rules == "relic-variant":
                        banked[leavers[0]] += int(code[1:])
                    else:
                        banked[leavers[0]] += 5 if relics_taken < 3 else 10
                    relics_taken += 1
                relics = []
    return banked


def test_the_reference_scorer_agrees_with_a_hand_worked_round():
    """The scorer itself, on RECORD.md's example round (ann 3, cy 5 + a relic worth 5)."""
    record = {
        "players": ["ann", "bob", "cy"],
        "rules": "relics",
        "rounds": [{
            "cards": ["T9", "H:snakes", "R", "T4", "H:snakes"],
            "decisions": [
                {"ann": "continue", "bob": "continue", "cy": "continue"},
                {"ann": "leave", "bob": "continue", "cy": "continue"},
                {"bob": "continue", "cy": "continue"},
                {"bob": "continue", "cy": "leave"},
            ],
        }],
    }
    assert reference_scores(record) == {"ann": 3, "bob": 0, "cy": 10}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(
        ["", "T5", "T17", "R", "R7", "H:lava", "continue", "leave", "ann", "classic"]
    ),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
    max_leaves=6,
)


def reordered(value, rng: random.Random):
    """``value`` with the keys of every JSON object in another order (the same JSON)."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: reordered(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [reordered(item, rng) for item in value]
    return value


EDITS = ["as written", "keys reordered", "result dropped", "replace", "delete", "repeat"]
VALID_EDITS = EDITS[:3]
"""Edits after which the record is still valid: JSON objects have no order, and the
result is optional on input (RECORD.md)."""


@st.composite
def edited_records(draw):
    """The record of a random game (finished or cut short) and one edit: one that keeps
    it valid, or a random one somewhere inside it (which may or may not)."""
    game, rng, leaning = draw(games())
    record = game_to_record(play(game, rng, leaning, steps=draw(st.integers(0, 120))))
    edit = draw(st.sampled_from(EDITS))
    if edit == "keys reordered":
        return reordered(record, draw(st.randoms(use_true_random=False))), edit
    if edit == "result dropped":
        record.pop("result", None)
    if edit in VALID_EDITS:
        return record, edit
    node, path = record, []
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 9)) > 1:
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    if path and edit == "delete":
        del parent[path[-1]]
    elif path and edit == "repeat" and isinstance(parent, list):
        parent.insert(path[-1], parent[path[-1]])
    elif path:
        parent[path[-1]] = draw(JSON)
    return record, edit


@settings(max_examples=500, deadline=None)
@given(edited_records())
def test_any_record_is_either_refused_or_replayed_exactly(edited):
    """Reading a record checks everything: never a crash and never a silent fix. What is
    accepted is written back exactly as it was read, and a valid record (as written, its
    keys in another order, without its optional result) is always accepted."""
    import json

    from diamant_tui.engine.errors import RecordError

    record, edit = edited
    try:
        replay = read_record(json.dumps(record))
    except RecordError as exc:
        assert str(exc)
        assert edit not in VALID_EDITS, f"a valid record ({edit}) was refused: {exc}"
        return
    again = game_to_record(replay.game)
    rounds = record["rounds"]
    if rounds and rounds[-1] == {"cards": [], "decisions": []}:
        rounds = rounds[:-1]  # a round that showed no card is the same as none
    assert again["rounds"] == rounds
    assert (again["rules"], again["players"]) == (record["rules"], record["players"])
    if "result" in record:
        assert again["result"]["scores"] == record["result"]["scores"]
