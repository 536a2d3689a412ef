"""Apps at one table draw what they show alike once, and each keeps what is its own."""

from contextlib import AsyncExitStack


from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from diamant_tui.ui.widgets.decision import ChoiceButton
from diamant_tui.ui.widgets.key_bar import KeyBar
from diamant_tui.ui.widgets.players import PlayerList
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import (FixedTable, T, drawn_lines, mid_round, screen_text, settled, until,
                        whole_game)


async def open_apps(stack: AsyncExitStack, table: FixedTable, apps: list[tuple[int | None, str]]):
    pilots = []
    for seat, lang in apps:
        app = DiamantApp(lang=lang, member=table.member(seat))
        pilots.append(await stack.enter_async_context(app.run_test(size=(80, 24))))
    for pilot in pilots:
        await settled(pilot)
    return pilots


def count_path_drawings(monkeypatch) -> list:
    """The cave paths drawn from now on (each widget once per drawing)."""
    drawn = []
    lines = CavePath._lines

    def counted(self):
        drawn.append(self)
        return lines(self)

    monkeypatch.setattr(CavePath, "_lines", counted)
    return drawn


async def test_apps_showing_the_same_path_draw_it_once(monkeypatch):
    """Three apps at a table (a player, two spectators), all in English at 80x24: a new
    card on the path is drawn once, not once for each of them, and all three show it."""
    forget_shared_lines()
    drawn = count_path_drawings(monkeypatch)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (None, "en"), (None, "en")])
        drawn.clear()
        await to_a_turn_nobody_decided(table, pilots)
        for pilot in pilots:
            assert "│   17  │" in screen_text(pilot.app)
        assert 1 <= len(drawn) < len(pilots), len(drawn)


async def test_a_shared_drawing_keeps_each_apps_language_and_own_seat():
    """What is shared is drawn per language and look: an English and a French app at one
    table each show the deck in their own words; the player's list marks their own seat,
    a spectator's marks none."""
    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        en, fr, watching = await open_apps(stack, table, [(0, "en"), (None, "fr"), (None, "en")])
        await to_a_turn_nobody_decided(table, (en, fr, watching))
        for pilot in (en, watching):
            assert "Deck: 23 cards" in screen_text(pilot.app)
            assert "Pioche" not in screen_text(pilot.app)
        assert "Pioche : 23 cartes" in screen_text(fr.app)
        assert "▶ Ana" in screen_text(en.app) and "▶" not in screen_text(watching.app)


async def test_seats_share_the_looks_of_their_keys_and_buttons_yet_keep_their_own_choice(monkeypatch):
    """Two players at a table are offered the same keys and buttons at the same moment:
    each look is drawn once for both apps. A choice made by one is marked on that
    player's screen only."""
    forget_shared_lines()
    drawn: list[str] = []
    for widget in (KeyBar, ChoiceButton):
        def counted(self, render=widget.render):
            drawn.append(type(self).__name__)
            return render(self)

        monkeypatch.setattr(widget, "render", counted)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        ana, dmytro = await open_apps(stack, table, [(0, "en"), (3, "en")])
        table.decide(Ana="continue")
        for pilot in (ana, dmytro):
            await settled(pilot)
        forget_shared_lines()  # the looks both apps drew when they opened
        drawn.clear()
        table.reveal(T(17))
        for pilot in (ana, dmytro):
            # (Waiting on what the screen shows would draw it, as it stood, for the test.)
            await until(pilot, lambda app=pilot.app: "17" in str(app.screen.query_one(CavePath).path))
            await settled(pilot)
        # One app drew the bar and the two buttons; the other took them as drawn.
        assert drawn.count("KeyBar") == 1, drawn
        assert drawn.count("ChoiceButton") == 2, drawn
        assert all("Continue [c]" in screen_text(pilot.app) for pilot in (ana, dmytro))
        await ana.press("c")
        await until(ana, lambda: "▶ Continue ✔" in screen_text(ana.app))
        await settled(dmytro)
        assert "▶ Continue ✔" not in screen_text(dmytro.app)
        assert "Continue [c]" in screen_text(dmytro.app)


async def test_a_player_deciding_redraws_one_row_of_the_lists_not_every_list(monkeypatch):
    """Two players and a spectator: when one of the players decides, the lists change by
    one row. That row is drawn once for the other two apps, and once more for the
    deciding player's own app (it marks their seat): not the whole list per app."""
    forget_shared_lines()
    lines: list[int] = []
    render_line = PlayerList.render_line

    def counted(self, y):
        lines.append(y)
        return render_line(self, y)

    monkeypatch.setattr(PlayerList, "render_line", counted)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (3, "en"), (None, "en")])
        await to_a_turn_nobody_decided(table, pilots)
        lines.clear()
        await continues_and_all_see_it(table, pilots, "Dmytro")
        assert 1 <= len(lines) <= 2, lines


async def test_a_lists_new_rows_are_styled_together(monkeypatch):
    """A card changes every row in the cave (the rubies carried): the first list to
    draw the new rows hands them to Textual's styling in one call, not one call a row,
    and draws each of them once."""
    from textual.widget import Widget

    forget_shared_lines()
    calls: list[int] = []
    rows: list[int] = []
    render_lines, render_line = Widget.render_lines, PlayerList.render_line

    def styled(self, crop):
        if isinstance(self, PlayerList):
            calls.append(crop.height)
        return render_lines(self, crop)

    def drawn(self, y):
        rows.append(y)
        return render_line(self, y)

    monkeypatch.setattr(Widget, "render_lines", styled)
    monkeypatch.setattr(PlayerList, "render_line", drawn)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        (pilot,) = await open_apps(stack, table, [(0, "en")])
        calls.clear()
        rows.clear()
        await to_a_turn_nobody_decided(table, [pilot])
        assert len(calls) == 1 and calls[0] >= 2, calls
        assert len(rows) == len(set(rows)) >= 2, rows


async def to_a_turn_nobody_decided(table: FixedTable, pilots) -> None:
    """The next card, a 17: Ana and Dmytro in the cave, neither has decided; every app
    has it on its path and has drawn it."""
    table.decide(Ana="continue")
    table.reveal(T(17))
    for pilot in pilots:
        await until(pilot, lambda app=pilot.app: "17" in str(app.screen.query_one(CavePath).path))
        await settled(pilot)


async def continues_and_all_see_it(table: FixedTable, pilots, name: str) -> None:
    """``name`` continues; every app marks it in their row and has settled."""
    table.decide(**{name: "continue"})
    for pilot in pilots:
        await until(pilot, lambda app=pilot.app: "✓" in _row_of(screen_text(app), name))
        await settled(pilot)


def _row_of(text: str, name: str) -> str:
    """The player list's line naming ``name`` on a screen."""
    return next((line for line in text.splitlines() if f"  {name} " in line
                 or f"▶ {name} " in line), "")


async def test_the_process_keeps_few_drawings_no_widget_shows():
    """A terminal resized again and again (each size a new drawing of every widget): the
    drawings no widget shows any more are let go, past the last 128 drawn."""
    from diamant_tui.ui.widgets import shared_lines

    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        (pilot,) = await open_apps(stack, table, [(0, "en")])
        for width in range(81, 111):
            await pilot.resize_terminal(width, 24)
            await settled(pilot)
        kept = shared_lines._LINES.keys()
        widgets = len(list(pilot.app.screen.walk_children(with_self=True)))
        assert len(kept) <= 128 + widgets, len(kept)  # some 9 KB a drawing of the path


async def test_a_drawing_one_app_shows_serves_the_next_however_much_was_drawn_since(monkeypatch):
    """Every drawing but the last is crowded out of the process's recent ones, yet when a
    card comes, the second of two apps showing the same path draws nothing again: the
    first app's drawing, which it shows, serves it."""
    from textual.cache import LRUCache

    from diamant_tui.ui.widgets import shared_lines

    forget_shared_lines()
    monkeypatch.setattr(shared_lines._LINES, "recent", LRUCache(1))
    drawn = count_path_drawings(monkeypatch)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (1, "en")])
        drawn.clear()
        await to_a_turn_nobody_decided(table, pilots)
        assert len(drawn) == 1, len(drawn)


async def test_the_process_keeps_few_lines_of_player_lists_no_list_shows():
    """The player list's lines, kept for the process, at every width of a terminal
    resized again and again: past the last 256 drawn, only those shown stay."""
    from diamant_tui.ui.widgets import players

    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        (pilot,) = await open_apps(stack, table, [(0, "en")])
        for width in range(81, 230):  # 5 lines at each width the list takes
            await pilot.resize_terminal(width, 24)
            await pilot.pause()
        await settled(pilot)
        kept = players._ROWS.rows.keys()
        assert len(kept) <= 256 + 5, len(kept)


async def test_a_line_one_list_shows_serves_the_next_however_much_was_drawn_since(monkeypatch):
    """Every line but the last is crowded out of the process's recent ones, yet when a
    player decides, the one row that changes is drawn once for her own app (it marks her
    seat) and once for two spectators, not for each list again."""
    from textual.cache import LRUCache

    from diamant_tui.ui.widgets import players

    forget_shared_lines()
    monkeypatch.setattr(players._ROWS.rows, "recent", LRUCache(1))
    drawn: list[int] = []
    render_line = PlayerList.render_line

    def counted(self, y):
        drawn.append(y)
        return render_line(self, y)

    monkeypatch.setattr(PlayerList, "render_line", counted)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (None, "en"), (None, "en")])
        await to_a_turn_nobody_decided(table, pilots)
        drawn.clear()
        await continues_and_all_see_it(table, pilots, "Ana")
        assert len(drawn) == 2, drawn  # Ana's own row, and the spectators' one


async def test_seats_share_the_lines_of_the_final_scores_yet_keep_their_own_note():
    """Two players and a spectator at a game's end: the score table, the winners' line
    and the title are the same lines in every app, drawn once; the players' rematch
    buttons are too. The note below says each their own: the spectator is watching."""
    from diamant_tui.ui.widgets.final_scores import FinalScores

    forget_shared_lines()
    table = FixedTable()
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (1, "en"), (None, "en")])
        whole_game(table)
        for pilot in pilots:
            await until(pilot, lambda app=pilot.app: bool(app.screen.query(FinalScores))
                        and app.screen.query_one(FinalScores).shown)
            await settled(pilot)
        ana, bruno, watching = (pilot.app.screen.query_one(FinalScores) for pilot in pilots)

        def lines(final: FinalScores, selector: str) -> list:
            return drawn_lines(final.query_one(selector))

        for selector in ("#final-scores", "#final-winners", ".dialog-title"):
            mine = lines(ana, selector)
            assert mine and any(line.text.strip() for line in mine), selector
            for other in (bruno, watching):
                assert all(a is b for a, b in zip(mine, lines(other, selector), strict=True))
        assert all(a is b for a, b in zip(lines(ana, "#quit"), lines(bruno, "#quit"),
                                          strict=True))
        note = [line.text for line in lines(watching, "#final-note")]
        assert note != [line.text for line in lines(ana, "#final-note")]
        assert "watching" in " ".join(note).lower()


async def test_seats_share_the_words_of_an_update_per_language(monkeypatch):
    """Two players and a spectator in English and a spectator in French: a card's line is
    worded once per language, the banners of the English apps hold the very same words
    (fitted once), and the player lists the very same columns; the French app has its
    own words."""
    from diamant_tui.ui import describe as describing
    from diamant_tui.ui.widgets.event_banner import EventBanner

    forget_shared_lines()
    describing._DESCRIBED.clear()  # (earlier tests may have worded the same events)
    worded: list[tuple[str, object]] = []
    describe = describing.describe

    def counted(t, names, event):
        worded.append((t.lang, event))
        return describe(t, names, event)

    monkeypatch.setattr(describing, "describe", counted)
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (3, "en"), (None, "en"),
                                                (None, "fr")])
        worded.clear()
        await to_a_turn_nobody_decided(table, pilots)
        assert {lang for lang, _ in worded} == {"en", "fr"}, worded
        assert len(worded) == len(set(worded)), worded  # each event once per language
        banners = [p.app.screen.query_one(EventBanner) for p in pilots]
        assert "17" in str(banners[0].visual)
        assert banners[0].visual is banners[1].visual is banners[2].visual
        assert banners[3].visual is not banners[0].visual
        lists = [p.app.screen.query_one(PlayerList) for p in pilots[:3]]
        assert lists[0]._layout() is lists[1]._layout() is lists[2]._layout()


async def test_seats_at_a_table_draw_their_round_summaries_line_by_line_once(monkeypatch):
    """Three players and a spectator see the same round's summary but for the mark on
    each player's own row: the first to draw it draws every line, the others only the
    rows that read otherwise for them, and each shows exactly what it would have drawn
    alone (checked against a drawing of its own, nothing shared)."""
    from rich.text import Text

    from diamant_tui.ui.widgets.drawn_runs import DrawnFromText
    from diamant_tui.ui.widgets.round_summary import SummaryBox
    from ui_helpers import cell_looks, summary_shown

    forget_shared_lines()
    drawn: list[str] = []
    render_line = DrawnFromText.render_line

    def counted(self, y):
        if isinstance(self, SummaryBox):
            drawn.append(self.app.member.seat)
        return render_line(self, y)

    monkeypatch.setattr(DrawnFromText, "render_line", counted)
    table = FixedTable()
    table.reveal(T(9))
    table.everyone("continue")
    table.reveal(T(5))
    async with AsyncExitStack() as stack:
        pilots = await open_apps(stack, table, [(0, "en"), (1, "en"), (2, "en"), (None, "en")])
        drawn.clear()
        table.everyone("leave")
        for pilot in pilots:
            await until(pilot, lambda app=pilot.app: summary_shown(app))
        for pilot in pilots:
            await settled(pilot)
        boxes = [pilot.app.screen.query_one(SummaryBox) for pilot in pilots]
        rows = len(boxes[0].drawn_texts())
        assert rows >= 9  # title, how, cards, blank, heading, four players, blank, next
        # The first box drew all its words; each other player only its own row and the
        # one of a player before it, which it shows unmarked; the spectator nothing.
        assert len(drawn) <= rows + 2 * (len(pilots) - 1), drawn
        assert drawn.count(None) == 0, drawn
        shown = [[cell_looks(line) for line in drawn_lines(box)] for box in boxes]
        forget_shared_lines()
        for box, lines in zip(boxes, shown):
            box._shown_rows.clear()
            alone = [cell_looks(line) for line in box.render_lines(box.size.region)]
            assert lines == alone
        marked = ["".join(char for line in lines for char, _ in line).count("▶")
                  for lines in shown]
        assert marked == [1, 1, 1, 0]
        assert isinstance(boxes[0].drawn_texts()[0], Text)
