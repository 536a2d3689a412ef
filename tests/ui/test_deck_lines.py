"""At a table the deck panel keeps the most lines its game has needed: a line given back
would lay the whole screen out again for every seat (and move the cave by a line)."""

from __future__ import annotations

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.deck_info import DeckInfo, DeckState
from ui_helpers import FixedTable, H, T, settled


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
        assert deck._line_count() == 6 and deck.size.height == 6
        layouts = []  # the deck panel's own requests for a new layout
        refresh = deck.refresh
        deck.refresh = lambda *a, layout=False, **k: (layouts.append(1) if layout else None,
                                                      refresh(*a, layout=layout, **k))[1]
        table.everyone("leave")  # the round is over: the hazards go back in the deck
        await settled(pilot)
        assert deck._line_count() == 5
        assert deck.size.height == 6 and layouts == []
        drawn = [strip.text for strip in deck.render_lines(deck.size.region)]
        assert "Sp3 Sn3 La3 Bo3 Ra3" in drawn[3] and not drawn[-1].strip(" │")
        table.reveal(T(5))  # round 2
        await settled(pilot)
        deck.state = DeckState.of(FixedTable().game.view_for(0))  # a new game's round 1
        await settled(pilot)
        assert deck.size.height == deck._line_count() == 5 and layouts
