"""Watching a recorded game again (ReplayScreen): forward, back, a round's start, playing by
itself, the end of the game, at 80x24 and larger, in the app's language."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets._toast import Toast

from diamant_tui.engine.cards import Rules
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.replay import ReplayScreen
from diamant_tui.ui.screens.setup import SetupScreen
from diamant_tui.ui.widgets.replay_header import ReplayHeader
from diamant_tui.ui.widgets.round_bar import BarState, RoundBar
from diamant_tui.ui.widgets.score_table import ScoreTable
from replay_helpers import NAMES, den_meta, played_game, recorded
from ui_helpers import screen_text, until

SMALL, LARGE = (80, 24), (160, 50)


def replay_app(replay=None, lang: str = "en", **options) -> DiamantApp:
    return DiamantApp(lang=lang, replay=replay or recorded(played_game(), den_meta()), **options)


def lines(app) -> list[str]:
    return screen_text(app).splitlines()


async def press(pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_it_opens_on_the_first_round_beginning_with_the_table_and_date(size):
    app = replay_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.step == 1
        text = lines(app)
        steps = len(screen.playback)
        assert text[0].split() == ["Replay", "·", "den-2", "·", "2025-03-01", "18:45", "UTC",
                                   "step", "1", "of", str(steps)]
        assert "Relics · Round 1/5 · card 0" in text[1]
        assert "Round 1 begins: everyone enters the cave." in screen_text(app)
        footer = text[-1]
        for words in ("←→ Step", "␣ Play/Pause", "-+ Speed", "1-5 Round", "q Quit"):
            assert words in footer
        assert len(text) == size[1] and all(len(line) <= size[0] for line in text)


@pytest.mark.parametrize(("lang", "date"), [("fr", "01/03/2025"), ("es", "01/03/2025"),
                                          ("uk", "01.03.2025")])
async def test_the_date_is_written_as_the_language_writes_dates(lang, date):
    """The header writes the day as the list of games does in that language (it wrote
    2025-03-01 in every language), and follows a change of language."""
    app = replay_app(lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert f"{date} 18:45 UTC" in lines(app)[0]
        await app.set_language("en")
        await pilot.pause()
        assert "2025-03-01 18:45 UTC" in lines(app)[0]


async def test_right_goes_forward_and_left_goes_back_to_the_same_screen():
    """Back is the game played again up to that step: the screen is the one seen before."""
    app = replay_app()
    async with app.run_test(size=LARGE) as pilot:  # the log has its own column there
        await pilot.pause()
        seen = {}
        for number in range(1, 13):
            assert app.screen.step == number
            seen[number] = screen_text(app)
            await press(pilot, "right")
        for number in range(12, 0, -1):
            await press(pilot, "left")
            assert app.screen.step == number
            assert screen_text(app) == seen[number], f"step {number} differs going back"


async def test_a_card_then_the_choices_revealed_together():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "right")
        text = screen_text(app)
        assert "step 2 of" in text and "card 1" in text
        assert text.count("…") >= len(NAMES), "everyone in the cave has still to choose"
        await press(pilot, "right")
        assert "Continue: Ana, Bruno, Chiara, Dmytro" in screen_text(app)


async def test_keys_1_to_5_jump_to_the_start_of_each_round():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        for round_ in (3, 5, 2, 4, 1):
            await press(pilot, str(round_))
            assert screen.step == screen.playback.round_start(round_)
            assert screen.query_one(RoundBar).state.round == round_
            text = screen_text(app)
            assert f"Round {round_}/5 · card 0" in text
            assert "The cave is dark" in text


async def test_a_round_the_record_never_reached_is_said_and_nothing_moves():
    unfinished = recorded(played_game(cut=25), den_meta())
    app = replay_app(unfinished)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        rounds = screen.playback.rounds
        assert rounds < 5
        await press(pilot, "right", "right")
        await press(pilot, "5")
        assert screen.step == 3
        toasts = [toast.render().plain for toast in app.screen.query(Toast)]
        assert f"This record has no round 5: it stops in round {rounds}." in toasts


async def test_end_shows_the_final_scores_under_the_last_path_and_home_goes_back():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        await press(pilot, "end")
        assert screen.step == len(screen.playback)
        text = screen_text(app)
        assert "Final scores · ★" in text and "Game over." in text
        assert "■ End of the game" in text
        assert screen.has_class("-over") and screen.query_one(ScoreTable).region.height > 0
        for name in NAMES:
            assert name in text
        await press(pilot, "right")  # nothing after the last step
        assert screen.step == len(screen.playback)
        await press(pilot, "home")
        assert screen.step == 1 and not screen.has_class("-over")
        await press(pilot, "left")  # nothing before the first
        assert screen.step == 1


async def test_an_unfinished_record_says_where_it_stops():
    app = replay_app(recorded(played_game(cut=25), den_meta()))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "end")
        assert "■ The record stops here: the game was not finished" in screen_text(app)


async def test_space_plays_every_step_at_a_fast_speed_and_stops_at_the_end():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        shown = []
        show_step = screen.show_step
        screen.show_step = lambda number: (shown.append(number), show_step(number))
        await press(pilot, "space")
        assert screen.playing and "▶ Playing ×1" in screen_text(app)
        assert shown == [], "a whole second before the first step"
        screen.step_seconds = 0.001  # a second a step at ×1 is a long test: ×2 of a ms
        await press(pilot, "plus")
        await until(pilot, lambda: not screen.playing)
        steps = len(screen.playback)
        assert shown == list(range(2, steps + 1)), "each step in turn, none skipped"
        assert screen.step == steps and "■ End of the game" in screen_text(app)
        # From the end, playing starts again from the first step.
        screen.step_seconds = 2.0
        await press(pilot, "space")
        assert screen.playing and screen.step == 1
        await press(pilot, "space")
        assert not screen.playing and screen._timer is None
        assert "‖ Paused ×2" in screen_text(app)


async def test_faster_and_slower_change_the_time_between_steps():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.step_delay == 1.0
        await press(pilot, "plus")
        assert screen.step_delay == 0.5 and "‖ Paused ×2" in screen_text(app)
        await press(pilot, "minus", "minus", "minus")
        assert screen.step_delay == 4.0 and "‖ Paused ×¼" in screen_text(app)
        await press(pilot, "minus")  # the slowest already
        assert screen.step_delay == 4.0


async def test_a_step_key_while_playing_moves_and_playing_goes_on():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        await press(pilot, "space", "3")
        assert screen.playing and screen.step == screen.playback.round_start(3)
        assert screen._timer is not None
        await press(pilot, "end")
        assert not screen.playing, "nothing left to play"


async def test_q_leaves_the_replay_and_the_local_app_ends():
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None)
        assert app.return_code == 0


async def test_q_over_another_screen_goes_back_to_it():
    """Pushed by a host over its own screen, the replay posts LeaveReplay and is closed."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Ana"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.push_screen(ReplayScreen(recorded(played_game())))
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "q")
        assert isinstance(app.screen, SetupScreen) and app.return_code is None


async def test_the_record_meta_names_the_computer_players():
    app = replay_app()
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        rows = {line.split()[0]: line for line in lines(app) if line.split()
                and line.split()[0] in NAMES}
        assert "(computer)" in rows["Bruno"] and "(computer)" in rows["Chiara"]
        assert "(computer)" not in rows["Ana"] and "(computer)" not in rows["Dmytro"]


async def test_without_meta_the_header_says_replay_and_the_step_only():
    app = replay_app(recorded(played_game()))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert lines(app)[0].split()[:2] == ["Replay", "step"]
        assert "(computer)" not in screen_text(app)


async def test_the_header_gives_up_the_date_then_shortens_the_table_on_a_narrow_screen():
    long_table = {**den_meta(), "table": "the-deepest-cave-of-all"}
    app = replay_app(recorded(played_game(), long_table))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        header = app.screen.query_one(ReplayHeader)
        header.styles.width = 50
        await pilot.pause()
        text = header.render().plain
        assert text.startswith("Replay · the-deepest-cave-of-all") and "UTC" not in text
        assert text.rstrip().endswith(f"step 1 of {len(app.screen.playback)}")
        header.styles.width = 36
        await pilot.pause()
        text = header.render().plain
        steps = len(app.screen.playback)
        assert text.startswith("Replay · the-de") and "…" in text
        assert text.rstrip().endswith(f"step 1 of {steps}")
        header.styles.width = 24
        await pilot.pause()
        assert header.render().plain.split() == ["Replay", "step", "1", "of", str(steps)]


async def test_names_from_the_file_are_shown_as_written_never_as_markup_or_controls():
    names = ("[bold]Ana[/bold]", "Bru\x1b[31mno", "漢字かな", "[@click=app.quit]")
    app = replay_app(recorded(played_game(names=names)))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await press(pilot, "right", "right", "end")
        text = screen_text(app)
        for shown in ("[bold]Ana[/bold]", "Bru [31mno", "漢字かな", "[@click=app.quit]"):
            assert shown in text
        assert "\x1b" not in text


@pytest.mark.parametrize("lang, words", [
    ("fr", ("Revoir la partie", "étape 1 sur", "←→ Étape", "1-5 Manche", "‖ En pause ×1")),
    ("es", ("Repetición", "paso 1 de", "←→ Paso", "1-5 Ronda", "‖ En pausa ×1")),
    ("uk", ("Повтор гри", "крок 1 з", "←→ Крок", "1-5 Раунд", "‖ Пауза ×1")),
])
async def test_it_speaks_the_app_language(lang, words):
    app = replay_app(lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for word in words:
            assert word in text
        assert all(len(line) <= SMALL[0] for line in text.splitlines())
        assert "f1" in text.splitlines()[-1], "the whole key bar fits in 80 columns"


async def test_a_new_language_redraws_the_same_step():
    app = replay_app()
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await press(pilot, "2", "right")
        step = app.screen.step
        await app.set_language("fr")
        await pilot.pause()
        text = screen_text(app)
        assert app.screen.step == step and f"étape {step} sur" in text
        assert "La manche 2 commence" in text and "Round 2 begins" not in text


async def test_eight_players_with_long_names_fit_at_80x24():
    names = ("Anastasia-Maria", "Bartholomew", "Chiara-Lucia", "Dmytro-Olek", "Esperanza",
             "Fitzgerald", "Guinevere", "Hieronymus")
    app = replay_app(recorded(played_game(names=names, rules="relic-variant", seed=5)))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "right")
        text = screen_text(app)
        assert "╭" in text or "╔" in text or "┏" in text, "the path keeps room for a card"
        for name in names:
            assert name[:8] in text
        await press(pilot, "end")
        text = screen_text(app)
        for name in names:
            assert name[:8] in text, "every player in the final scores"
        assert "End of the game" in text


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_g_opens_and_closes_the_whole_game_log(size):
    app = replay_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press(pilot, "2", "right")
        await press(pilot, "g")
        text = screen_text(app)
        assert "Game log" in text or size == LARGE  # a framed overlay at 80 columns
        assert "Round 1 ends in disaster (snakes)." in text and "Round 2 begins" in text
        await press(pilot, "g")
        # Closed again: the round's lines stay under the path, the earlier ones in the log,
        # which has a column of its own on a large screen.
        assert ("Round 1 ends in disaster" in screen_text(app)) == (size == LARGE)



async def test_the_log_opened_again_reads_the_steps_taken_while_closed_at_its_width():
    """At 80x24, the log opened, closed, and opened again after steps forward: their lines
    wrap at the log's width, not at 20 columns (a hidden log has no width)."""
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "g")
        await press(pilot, "g")
        await press(pilot, "2", "right")
        await press(pilot, "g")
        log = app.screen.query_one("#log")
        rows = [strip.text.rstrip() for strip in log.lines]
        assert "Round 1 ends in disaster (snakes)." in rows, rows
        assert "Round 2 begins: everyone enters the cave." in rows, rows

# -- any step of any record ---------------------------------------------------------------------

KEYS = st.sampled_from(["right", "left", "1", "2", "3", "4", "5", "home", "end", "g", "space"])


def frame(app) -> None:
    """Draw the app's next frame now (what its refresh timer does: the layout if needed and
    every widget that changed), so that a step that cannot be drawn fails here.
    Private: Textual's minor version is pinned."""
    app.screen._on_timer_update()


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rules=st.sampled_from(list(Rules)), players=st.integers(3, 8),
       seed=st.integers(0, 2**32), cut=st.none() | st.integers(0, 120),
       size=st.sampled_from([SMALL, (120, 40)]), keys=st.lists(KEYS, max_size=6))
def test_every_step_of_any_record_shows_forward_and_back(rules, players, seed, cut, size, keys):
    """Random games of the engine, written and read back: every step is drawn going
    forward, then again going back, then after random keys, and shows that step's game."""
    names = ("Ana", "[b]Bruno", "Chiara", "Dmytro", "Ešte", "Fay\u0301", "漢字", "Hal")[:players]
    replay = recorded(played_game(names=names, rules=rules.value, seed=seed, cut=cut))

    async def walk() -> None:
        app = replay_app(replay)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            steps = len(screen.playback)

            def check(number: int) -> None:
                assert screen.step == number
                frame(app)
                view = screen.playback.at(number).view
                assert screen.query_one(RoundBar).state == BarState.of(view)
                header = screen.query_one(ReplayHeader).render().plain
                assert header.rstrip().endswith(f"step {number} of {steps}")

            for number in range(1, steps + 1):
                check(number)
                screen.action_next()
            for number in range(steps, 0, -1):
                check(number)
                screen.action_previous()
            await pilot.pause()
            for key in keys:
                await press(pilot, key)
                check(screen.step)
            assert "step" in screen_text(app).splitlines()[0]

    asyncio.run(walk())


async def test_playing_waits_while_the_terminal_is_too_small_and_goes_on_from_there():
    """Below 80x24 the screen asks for a larger terminal: the steps it hides are not
    played meanwhile (whoever makes the window larger again missed the cards turned),
    and playing goes on from the step it was held at, none skipped."""
    app = replay_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.step_seconds = 60.0
        await press(pilot, "space")
        await pilot.resize_terminal(70, 20)
        await until(pilot, lambda: screen.too_small)
        held_at = screen.step
        shown = []
        show_step = screen.show_step
        screen.show_step = lambda number: (shown.append(number), show_step(number))
        screen.step_seconds = 0.001  # the next steps would come at once
        screen._schedule()
        await until(pilot, lambda: screen._timer is None)
        await pilot.pause()
        assert shown == [] and screen.step == held_at and screen.playing
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: len(shown) >= 3)
        assert shown[:3] == [held_at + 1, held_at + 2, held_at + 3]
