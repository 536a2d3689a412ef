"""A layout arranges the screen's widgets once: the widgets it gives another size find
where they lie in the map it has just made, not in one arranged again for them."""

from textual._compositor import Compositor

from diamant_tui.ui import DiamantApp
from ui_helpers import FixedTable, H, final_shown, screen_text, settled, until, whole_game


def count_arrangements(monkeypatch) -> list[bool]:
    """Every arrangement of a whole screen from now on (True: of its visible widgets
    only, as a scroll makes; False: of all of them, as a layout and the full map do)."""
    made: list[bool] = []
    arrange = Compositor._arrange_root

    def counted(self, root, size, visible_only=True):
        made.append(visible_only)
        return arrange(self, root, size, visible_only=visible_only)

    monkeypatch.setattr(Compositor, "_arrange_root", counted)
    return made


async def test_the_games_end_arranges_the_screen_once(monkeypatch):
    """At the first game's end the final scores are mounted and laid out: one
    arrangement of the screen (the layout's own), where their first sizes asked for a
    second; the map the layout made is the one a fresh arrangement makes."""
    made = count_arrangements(monkeypatch)
    table = whole_game(FixedTable(), last_card=False)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        made.clear()
        table.reveal(H("boulders"))  # the fifth round, and the game, end
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        assert made == [False], made
        compositor = app.screen._compositor
        fresh, _ = Compositor._arrange_root(compositor, compositor.root, compositor.size,
                                            visible_only=False)
        assert compositor.full_map == fresh


async def test_a_widget_mounted_after_a_layout_is_still_found(monkeypatch):
    """The map a layout made is kept until something new is mounted: a widget mounted
    afterwards makes the map be arranged again, and is found in it."""
    from textual.widgets import Label

    table = whole_game(FixedTable(), last_card=False)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        made = count_arrangements(monkeypatch)
        label = Label("late")
        await app.screen.query_one("#table-main").mount(label)
        await settled(pilot)
        assert False in made
        assert app.screen.find_widget(label).region.width > 0
        assert "late" in screen_text(app)
