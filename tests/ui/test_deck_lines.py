"""At a table the deck panel keeps the most lines its game has needed: a line given back
would lay the whole screen out again for every seat (and move the cave by a line)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.deck_info import DeckInfo, DeckState
from diamant_tui.ui.widgets.players import PlayerList
from textual.geometry import Size

from ui_helpers import (FixedTable, H, T, final_shown, mid_round, screen_layouts, settled,
                        until, whole_game)


async def test_the_deck_panel_keeps_its_lines_through_a_game_and_fits_a_new_one():
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        deck = app.screen.query_one(DeckInfo)
        for hazard in ("spiders", "snakes", "lava", "boulders"):
            table.reveal(H(hazard))
            table.everyone("continue")
        table.reveal(T(3))
        await settled(pilot)
        # Four deadly types: "Sp2! Sn2! La2! Bo2! Ra3" takes two lines of the panel.
        assert deck._line_count(deck.size.width) == 6 and deck.size.height == 6
        layouts = []  # the deck panel's own requests for a new layout
        refresh = deck.refresh
        deck.refresh = lambda *a, layout=False, **k: (layouts.append(1) if layout else None,
                                                      refresh(*a, layout=layout, **k))[1]
        table.everyone("leave")  # the round is over: the hazards go back in the deck
        await settled(pilot)
        assert deck._line_count(deck.size.width) == 5
        assert deck.size.height == 6 and layouts == []
        drawn = [strip.text for strip in deck.render_lines(deck.size.region)]
        assert "Sp3 Sn3 La3 Bo3 Ra3" in drawn[3] and not drawn[-1].strip(" │")
        table.reveal(T(5))  # round 2
        await settled(pilot)
        deck.state = DeckState.of(FixedTable().game.view_for(0))  # a new game's round 1
        await settled(pilot)
        assert deck.size.height == deck._line_count(deck.size.width) == 5 and layouts


async def test_the_seats_of_a_table_lay_their_deck_panel_out_alike():
    """Each takes the lines it needs as the game begins: one height for the table, so
    that the cave under it is drawn once for all of them."""
    table = Table(TableSettings(name="deck", seats=3, bots=(), pace=0.05, seed=5))
    members = [table.sit(name, f"key-{name}") for name in ("Ann", "Bob", "Cy")]
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(
            DiamantApp(lang="en", member=member).run_test(size=(80, 24)))
            for member in members]  # waiting at the table until the third sits
        await until(pilots[0], lambda: table.game is not None
                    and table.game.view_for(0).decision_due)
        heights = set()
        for pilot in pilots:
            await settled(pilot)
            deck = pilot.app.screen.query_one(DeckInfo)
            assert deck.size.height == deck._line_count(deck.size.width)
            heights.add(deck.size.height)
        assert heights == {5}
    await table.close()


async def test_a_state_given_before_the_first_layout_is_measured_at_the_panels_width(
        monkeypatch):
    """A deck panel is given its first state as it is made, before it has a width. What
    the state would need at no width (the words wrapped ten cells wide) must not be kept:
    the seats of a table whose first state came before or after their first layout laid
    their cave out at different heights, and drew it each for themselves."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        deck = app.screen.query_one(DeckInfo)
        view = app.screen.view
        with monkeypatch.context() as not_laid_out:
            not_laid_out.setattr(DeckInfo, "size", property(lambda self: Size(0, 0)))
            deck.state = DeckState.of(FixedTable().game.view_for(0))  # before a layout
        deck.state = DeckState.of(view)
        deck.refresh(layout=True)
        await settled(pilot)
        assert deck.size.height == deck._line_count(deck.size.width) == 5


async def test_after_a_rematch_the_deck_panel_takes_the_lines_the_new_game_needs():
    """A game whose deck panel grew (a hazard type removed) is followed by one that needs
    fewer lines: from its first card on, the panel gives them back, for a player and for a
    spectator. It was hidden under the final scores, with no size to go by, and kept the
    old game's height, a blank line, until something else laid the screen out."""
    for seat in (0, None):
        table = whole_game(FixedTable())
        app = DiamantApp(lang="en", member=table.member(seat))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: final_shown(app))
            for game in (2, 3):
                table.rematch()
                table.reveal(T(3))
                await until(pilot, lambda: not final_shown(app))
                await settled(pilot)
                deck = app.screen.query_one(DeckInfo)
                await until(pilot, lambda: deck.state is not None and deck.state.view.step == 1)
                await settled(pilot)
                assert deck.size.height == deck._line_count(deck.size.width) == 5, (seat, game)
                table.everyone("continue")
                table.reveal(H("snakes"))
                table.everyone("continue")
                table.reveal(H("snakes"))  # a disaster: one more line (removed: snakes)
                await until(pilot, lambda: deck.state.view.hazards_removed)
                await settled(pilot)
                assert deck.size.height == deck._line_count(deck.size.width) == 6, (seat, game)
                while not table.game.over:
                    table.reveal(T(1))
                    if table.game.phase.value == "decision":
                        table.everyone("leave")
                await until(pilot, lambda: final_shown(app))


async def test_lines_the_panel_gains_beside_a_taller_player_list_lay_nothing_out(monkeypatch):
    """At a table of five the player list beside the panel is six lines tall (a heading
    and a line per player), and so is the row. The panel takes those six lines from the
    start: the counts wrapping onto a sixth line as hazard types turn deadly lay nothing
    out (each was a layout of the whole screen, for every seat at the table)."""
    layouts = screen_layouts(monkeypatch)
    table = FixedTable(names=("Ana", "Bruno", "Chiara", "Dmytro", "Emma"))
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        deck = app.screen.query_one(DeckInfo)
        players = app.screen.query_one(PlayerList)
        assert deck._line_count(deck.size.width) == 5
        assert deck.size.height == players.size.height == 6
        layouts.clear()
        for hazard in ("spiders", "snakes", "lava", "boulders"):
            table.reveal(H(hazard))
            table.everyone("continue")
        await settled(pilot)
        # Four deadly types: "Sp2! Sn2! La2! Bo2! Ra3" takes two lines of the panel.
        assert deck._line_count(deck.size.width) == 6 and deck.size.height == 6
        assert [s for s in layouts if s is app.screen] == []
        drawn = [strip.text for strip in deck.render_lines(deck.size.region)]
        assert "Bo2!" in drawn[3] and "Ra3" in drawn[4] and "Seen:" in drawn[5], drawn


async def test_the_line_counts_kept_for_the_process_keep_no_view():
    """The deck panel's line counts, kept for the process (up to 1,024 states), are
    keyed by what the panel shows: they kept each state's whole view besides (every seat,
    the path, the rounds' results), long after its game was over."""
    import gc

    from diamant_tui.engine.view import PlayerView
    from diamant_tui.ui.widgets import deck_info

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        deck = app.screen.query_one(DeckInfo)
        for hazard in ("spiders", "snakes"):
            table.reveal(H(hazard))
            table.everyone("continue")
        await settled(pilot)
        assert deck._line_count(deck.size.width) >= 1
        assert deck_info._LINE_COUNTS.keys()
        kept = [o for key in deck_info._LINE_COUNTS.keys() for o in gc.get_referents(*key)]
        kept += [o for k in kept if isinstance(k, DeckState) for o in gc.get_referents(k)]
        assert not any(isinstance(o, PlayerView) for o in kept)
