"""Every screen, in every language, at exactly 80x24, with the longest names allowed.

The screen is read as the terminal receives it: the compositor's rendered lines
(``screen_text``), the same strips the driver writes out. What each screen must show
is computed here from the game and the catalogues, and each text must be found
whole: on one line where it should not wrap (a title, a column, a message line),
or in order over the next lines where wrapping is its nature (the rules, a note).

Besides, on every screen: no text ends in an ellipsis (a cut), except a player's
name in the narrow player list when it cannot fit there whole (wide characters);
no line starts with a lone punctuation mark (French "?" pushed onto a line of its
own); and exactly 24 lines of at most 80 cells.

The table is driven card by card through the longest game the deck allows:
relic variant, four rounds ended by four different disasters (the longest list of
barricaded entrances), then a fifth round with every treasure, one of each hazard
and all five relics on the path (25 cards) before a disaster on the 26th.
"""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from diamant_tui.engine.cards import VARIANT_RELIC_VALUES, HazardType, Rules
from diamant_tui.engine.events import DecisionMade, Event
from diamant_tui.i18n import LANGUAGES, Translator
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.describe import RUBY, describe
from diamant_tui.ui.screens.confirm import ConfirmScreen
from diamant_tui.ui.screens.rules import RulesScreen
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.engine.view import Phase, PlayerView
from ui_helpers import final_shown, FixedTable, H, Relic, T, screen_text, summary_shown, table_shown, until

WIDTH, HEIGHT = 80, 24
# Names of the longest length a table accepts (16 characters), some of them in wide
# characters (two cells each).
NARROW = ("Maximiliano-Juan", "Oleksandra-Petro", "Bartholomew Kent", "Anna-Kateryna Lo",
          "Jean-Christophe1", "Wolfgang-Amadeus", "Guadalupe-Inés M", "Konstantinos Pap")
WIDE = ("山田太郎山田太郎山田太郎山田太郎", "김민준서연김민준서연김민준서연김", "Oleksandra-Petro",
        "Bartholomew Kent", "Anna-Kateryna Lo", "Jean-Christophe1", "Wolfgang-Amadeus",
        "Guadalupe-Inés M")
NAME_SETS = {"narrow": NARROW, "wide": WIDE}
TREASURES = (17, 15, 14, 13, 11, 11, 9, 7, 7, 5, 5, 4, 3, 2, 1)
LONE_PUNCTUATION = re.compile(r"^[?!:;»%](\s|$)")
FRAME = "│║┃╭╮╰╯─━═╔╗╚╝┏┓┗┛▌▐█▀▄▁▂▃▄▅▆▇ "


def test_the_names_are_the_longest_allowed():
    from diamant_tui.table import NAME_MAX_CHARS

    assert {len(n) for n in NARROW + WIDE} == {NAME_MAX_CHARS}
    assert max(cell_len(n) for n in WIDE) == 2 * NAME_MAX_CHARS


# -- reading the screen ------------------------------------------------------------


class Screen:
    """The rendered lines of one moment, and the checks every text on it must pass."""

    def __init__(self, app, where: str, shortenable: tuple[str, ...] = (),
                 modal: bool = False) -> None:
        self.where = where
        self.modal = modal
        self.rows = screen_text(app).split("\n")[:HEIGHT]
        self.allowed_cuts: set[str] = set()
        self.shortenable = shortenable

    def fail(self, message: str) -> None:
        raise AssertionError(f"{self.where}: {message}\n" + "\n".join(self.rows))

    def whole(self, text: str) -> int:
        """``text`` on one line (it must not be cut nor wrap); returns the line's index."""
        for i, row in enumerate(self.rows):
            if text in row:
                return i
        self.fail(f"not found whole on one line: {text!r}")
        return -1

    def flowing(self, text: str) -> None:
        """``text`` in full, possibly wrapped over consecutive lines (inside a frame)."""
        words = text.split()
        inner = [" ".join(row.strip(FRAME).split()) for row in self.rows]
        for start in range(len(inner)):
            joined = ""
            for row in inner[start:start + 8]:
                joined = f"{joined} {row}".strip()
                if " ".join(words) in joined:
                    return
        self.fail(f"not found in full: {text!r}")

    def row_with(self, text: str) -> str:
        return self.rows[self.whole(text)]

    def check_common(self) -> None:
        """24 lines of at most 80 cells, no text cut short, no lone punctuation mark."""
        assert len(self.rows) == HEIGHT, self.where
        for row in self.rows:
            if cell_len(row) > WIDTH:
                self.fail(f"line wider than {WIDTH}: {row!r}")
            # A cut is an ellipsis right after a word; a lone "…" is the "not yet
            # decided" mark of the player list, and some texts have one of their own.
            for match in re.finditer(r"(\S+)…", row):
                if any(allowed in row for allowed in self.allowed_cuts):
                    continue
                if any(name.startswith(match.group(1)) for name in self.shortenable):
                    continue
                self.fail(f"text cut short at {match.group()!r} in {row!r}")
            pieces = re.split(r"[│║┃]", row.strip(" "))
            if self.modal:
                # Over a dialog's sides, the screen below shows through, partly covered.
                pieces = pieces[1:-1] if len(pieces) > 2 else pieces[:1]
            for piece in pieces:
                if LONE_PUNCTUATION.match(piece.strip(FRAME)):
                    self.fail(f"a line starts with a lone punctuation mark: {row!r}")

    def allow(self, *texts: str) -> None:
        """Texts that hold an ellipsis of their own (``Nothing happens… this time``)."""
        self.allowed_cuts.update(t for t in texts if "…" in t)


def catalogue_ellipses(t) -> list[str]:
    """Every catalogue text with an ellipsis, formatted with plausible values."""
    from diamant_tui.i18n import CATALOGUES

    texts = []
    for key, text in CATALOGUES[t.lang].items():
        if "…" in text:
            for hazard in HazardType:
                try:
                    texts.append(t(key, hazard=t(f"hazard.{hazard.value}")))
                except (KeyError, IndexError):
                    texts.append(text)
    return texts


async def look(pilot, where: str, names: tuple[str, ...] = (), modal: bool = False) -> Screen:
    """The screen as it is once the app is idle, past the checks every screen passes.

    Of ``names``, those in wide characters may be shortened in the player list: at 80
    columns it cannot hold 32 cells of name beside the numbers.
    """
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    wide = tuple(n for n in names if cell_len(n) > len(n))
    screen = Screen(pilot.app, where, wide, modal)
    screen.allow(*catalogue_ellipses(pilot.app.translator))
    screen.check_common()
    return screen


# -- a table driven through the longest game -----------------------------------------


class RecordingTable(FixedTable):
    """A FixedTable that remembers the events of its last update, as a screen got them."""

    last_events: tuple[Event, ...] = ()

    def publish(self, events):
        self.last_events = tuple(events)
        super().publish(events)


def quick_round(table: RecordingTable, hazard: str, treasure: int, leavers: int) -> None:
    """A treasure, ``leavers`` players (never the person) go back to camp, then a
    disaster of ``hazard``. No relic is turned: all five wait for round 5."""
    names = table.game.names
    table.reveal(T(treasure))
    table.decide(**{n: "leave" if 0 < i <= leavers else "continue" for i, n in enumerate(names)})
    table.reveal(H(hazard))
    table.everyone("continue")
    table.reveal(H(hazard))


def longest_round(table: RecordingTable):
    """Round 5: 15 treasures, a first hazard of each kind and the five relics, 25 cards.

    After each relic one more player (never the person; first the widest name) goes
    back to camp alone and takes it. Yields the card's number after each card, and minus it once a player
    has taken a relic.
    """
    game = table.game
    names = game.names
    treasures = [T(v) for v in TREASURES]
    relics = [Relic(v) for v in VARIANT_RELIC_VALUES]
    hazards = [H(h.value) for h in HazardType]
    cards = []
    while treasures or relics or hazards:
        for source in (treasures, relics, treasures, hazards, treasures):
            if source:
                cards.append(source.pop(0))
    assert len(cards) == 25
    for step, card in enumerate(cards, start=1):
        table.reveal(card)
        yield step
        cave = game.players_in_cave
        if isinstance(card, Relic) and len(cave) > 2:
            leaver = cave[1]
            table.decide(**{names[s]: "leave" if s == leaver else "continue" for s in cave})
            yield -step
        elif step < len(cards):
            table.everyone("continue")


def banner_lines(t, table: RecordingTable) -> list[str]:
    """The texts the message lines under the cave must show: the update's last two."""
    names = table.game.names
    texts = [describe(t, names, e) for e in table.last_events if not isinstance(e, DecisionMade)]
    return [text for text in texts if text][-2:]


def check_bar(screen: Screen, t, view: PlayerView) -> None:
    """The top line: rule set, round and card, and all five entrances."""
    bar = screen.rows[0]
    screen.whole(t(f"rules.{view.rules.value}") + " · "
                 + t("table.round", round=view.round, rounds=view.rounds) + " · "
                 + t("table.card", step=view.step))
    for result in view.round_results:
        hazard = result.disaster
        assert hazard is not None
        marks = {f"▓{result.round}✖{t(f'hazard_short.{hazard.value}')}",
                 f"▓{result.round}✖{t(f'hazard_abbr.{hazard.value}')}"}
        if not any(m in bar for m in marks):
            screen.fail(f"entrance {result.round} is not shown closed by {hazard.value}")
    for n in range(len(view.round_results) + 1, view.rounds + 1):
        if f"[{n}]" not in bar and f"·{n}" not in bar:
            screen.fail(f"entrance {n} is missing from the top line")


def check_players(screen: Screen, t, view: PlayerView) -> None:
    """Each player on a line with their place and numbers; a name is shortened only
    if it is wider than the player list can hold."""
    top = screen.whole(t("players.name") + " ")
    rows = screen.rows[top + 1:top + 1 + len(view.players)]
    for p in view.players:
        row = next((r for r in rows if p.name in r), None)
        if row is None and p.name in screen.shortenable:
            row = next((r for r in rows for m in re.finditer(r"(\S+)…", r)
                        if p.name.startswith(m.group(1))), None)
        if row is None:
            screen.fail(f"player {p.name!r} is not shown")
        place = t("place.cave") if p.in_cave else t("place.camp")
        assert place in row, (screen.where, p.name, row)
        if p.chest is not None:
            assert f"{RUBY}{p.chest}" in row, (screen.where, p.name, row)
        if p.relics:
            assert f"◈{len(p.relics)}:{p.relic_points}" in row, (screen.where, p.name, row)


def check_deck(screen: Screen, t, view: PlayerView) -> None:
    """The deck panel: every line whole, every hazard type counted."""
    screen.whole(t("deck.title", count=view.deck_size))
    counts = view.deck_counts
    for h in HazardType:
        token = f"{t(f'hazard_abbr.{h.value}')}{counts.get(f'H:{h.value}', 0)}"
        if not re.search(rf"(^|\s){re.escape(token)}!?(\s|$)", "\n".join(screen.rows),
                         re.MULTILINE):
            screen.fail(f"deck count {token!r} is missing")
    relics = sum(n for code, n in counts.items() if code.startswith("R"))
    screen.whole(t("deck.relic", count=relics))
    screen.whole(t("deck.seen", hazards="").rstrip())


def check_footer(screen: Screen, t, *keys: str) -> None:
    footer = screen.rows[-1]
    for key in keys:
        if t(key) not in footer:
            screen.fail(f"key hint {t(key)!r} is missing")


def check_decision(screen: Screen, t, view: PlayerView) -> None:
    """Both buttons whole (the chosen one marked) while a choice is due, and the note in full."""
    for decision, key in (("continue", "c"), ("leave", "l")):
        if not view.decision_due:
            break  # the buttons show only when there is a choice to make
        word = t(f"decision.{decision}")
        chosen = view.my_decision is not None and view.my_decision.value == decision
        screen.whole(f"▶ {word} ✔" if chosen else f"{word} [{key}]")
    if view.decision_due and view.my_decision is None:
        screen.flowing(t("decision.prompt"))


def check_table(screen: Screen, t, table: RecordingTable, wrapping_allowed: bool) -> None:
    view = table.game.view_for(0)
    check_bar(screen, t, view)
    check_players(screen, t, view)
    check_deck(screen, t, view)
    check_decision(screen, t, view)
    me = view.me
    deciding = me is not None and me.in_cave and view.phase in (Phase.REVEAL, Phase.DECISION)
    # Continue and Exit only for a player in the cave of a round under way.
    check_footer(screen, t, *(("key.continue", "key.leave") if deciding else ()),
                 "key.log", "key.quit")
    for text in banner_lines(t, table)[-1 if wrapping_allowed else -2:]:
        # Long names in wide characters may make a message take two lines; narrow ones never.
        if wrapping_allowed:
            screen.flowing(text)
        else:
            screen.whole(text)


def check_summary(screen: Screen, t, table: RecordingTable) -> None:
    view = table.game.view_for(0)
    result = view.round_results[-1]
    screen.whole(t("summary.title", round=result.round, rounds=view.rounds))
    screen.whole(t("summary.disaster", hazard=t(f"hazard.{result.disaster.value}")))
    screen.whole(t("summary.cards", cards=result.cards))
    header = screen.row_with(t("summary.banked"))
    for word in (t("players.name"), t("summary.relics"), t("summary.score")):
        assert word in header, (screen.where, word, header)
    for p in view.players:
        row = next(part for part in screen.row_with(p.name).split("│") if p.name in part)
        rubies = result.banked[p.seat] - result.relics[p.seat]
        assert f"+{rubies}{RUBY}" in row, (screen.where, row)
        assert row.split()[-1] == str(p.chest + p.relic_points), (screen.where, row)
    screen.whole(t("summary.next"))


def check_final(screen: Screen, t, table: RecordingTable) -> None:
    view = table.game.view_for(0)
    screen.whole(t("final.title"))
    names = [view.players[s].name for s in view.winners]
    key = "final.winner" if len(names) == 1 else "final.winners"
    screen.flowing("★ " + t(key, names=", ".join(names)))
    top = screen.whole(t("final.total"))
    header = screen.rows[top]
    assert t("players.name") in header
    for r in view.round_results:
        assert t("final.round_short", round=r.round) in header
    for p in view.players:
        row = next((r for r in screen.rows[top + 1:] if p.name in r), None)
        if row is None:
            screen.fail(f"player {p.name!r} is not shown whole")
        assert re.search(rf"\b{view.scores[p.seat]}\b", row), (screen.where, row)
    ended = screen.row_with(t("final.ended"))
    for r in view.round_results:
        assert f"✖{t(f'hazard_abbr.{r.disaster.value}')}" in ended, (screen.where, ended)
    screen.flowing(t("final.vote_hint"))
    screen.whole(t("final.rematch"))
    screen.whole(t("final.quit"))


@pytest.mark.parametrize("names", list(NAME_SETS))
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_table_fits_through_the_longest_game(lang, names):
    """Round summaries, the table after a disaster, the longest path, the log, the
    question before leaving and the final scores."""
    t = Translator(lang)
    wide = names == "wide"
    people = NAME_SETS[names]
    table = RecordingTable(rules=Rules.RELIC_VARIANT, names=people)
    app = DiamantApp(lang=lang, member=table.member(0))
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        rounds = [("spiders", 3, 0), ("snakes", 17, 2), ("lava", 9, 3), ("boulders", 17, 1)]
        for n, (hazard, treasure, leavers) in enumerate(rounds, start=1):
            quick_round(table, hazard, treasure, leavers)
            await until(pilot, lambda: summary_shown(app))
            check_summary(await look(pilot, f"{lang}/{names} summary of round {n}",
                                      modal=True), t, table)
            await pilot.press("enter")
            await until(pilot, lambda: table_shown(app))
            screen = await look(pilot, f"{lang}/{names} table after disaster {n}", people)
            check_table(screen, t, table, wide)

        for step in longest_round(table):
            # A relic taken (its value in the message), and the longest path.
            if step in (-2, -12, -22, 23, 25):
                await pilot.pause()
                screen = await look(pilot, f"{lang}/{names} round 5, card {step}", people)
                check_table(screen, t, table, wide)
        assert table.game.view_for(0).decision_due and len(table.game.path) == 25

        await pilot.press("p")  # the disaster chance, one more line in the deck panel
        screen = await look(pilot, f"{lang}/{names} with the disaster chance", people)
        view = table.game.view_for(0)
        screen.whole(t("deck.chance", percent=round(100 * view.disaster_chance)))
        check_table(screen, t, table, wide)

        await pilot.press("c")  # the note now says what was chosen, on its two lines
        await until(pilot, lambda: table.game.view_for(0).my_decision is not None)
        screen = await look(pilot, f"{lang}/{names} chosen", people)
        screen.flowing(t("decision.chosen", choice=t("decision.continue")))

        await pilot.press("g")
        screen = await look(pilot, f"{lang}/{names} log open", people)
        screen.whole(t("log.title"))
        screen.whole(t("log.close"))
        check_decision(screen, t, table.game.view_for(0))  # the log leaves it visible
        await pilot.press("g")

        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        screen = await look(pilot, f"{lang}/{names} leave?", people, modal=True)
        screen.whole(t("confirm.leave"))
        screen.whole(t("confirm.yes"))
        screen.whole(t("confirm.no"))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))

        table.everyone("continue")
        table.reveal(H("spiders"))  # a second spider: the fifth disaster ends the game
        await until(pilot, lambda: final_shown(app))
        check_final(await look(pilot, f"{lang}/{names} final scores"), t, table)


# -- before the game -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_setup_and_the_rules_fit(lang):
    """The setup screen with the longest choices (eight players, seven computer players
    named on the command line), and the rules over it."""
    t = Translator(lang)
    bots = ("expert", "ev", "risk", "hazards:2", "carry:25", "cards:4", "random:0.3")
    choices = SetupChoices(name=NARROW[0], players=8, level="custom", custom_bots=bots,
                           rules=Rules.RELIC_VARIANT, timer=60.0, hidden_chests=True)
    app = DiamantApp(lang=lang, choices=choices)
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        screen = await look(pilot, f"{lang} setup")
        for key in ("setup.title", "setup.subtitle", "setup.name", "setup.rules",
                    "setup.players", "setup.opponents", "setup.timer", "setup.hidden",
                    "setup.language", "setup.start", "setup.show_rules",
                    "rules.relic-variant.long", "setup.yes"):
            screen.whole(t(key))
        screen.whole(NARROW[0])
        screen.whole(t("setup.timer_seconds", seconds="60"))
        chosen = screen.row_with(t("level.custom", bots="").rstrip())
        assert "expert" in chosen and "…" not in chosen
        from diamant_tui.ui.screens.setup import custom_label

        screen.whole(custom_label(t, bots))
        check_footer(screen, t, "key.start", "key.quit", "key.rules")

        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        screen = await look(pilot, f"{lang} rules", modal=True)
        heading = t("rules.body").splitlines()[0].lstrip("# ")
        screen.whole(heading)
        first = t("rules.body").split("\n\n")[1].replace("**", "").replace("*", "")
        screen.flowing(first)
        check_footer(screen, t, "key.close")


@pytest.mark.parametrize("names", list(NAME_SETS))
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_table_waiting_for_players_fits(lang, names):
    t = Translator(lang)
    table = Table(TableSettings(name="a-table-name-of-20ch", seats=8, bots=(),
                                rules=Rules.RELIC_VARIANT, timer=60, hidden_chests=True))
    people = NAME_SETS[names][:7]
    members = [table.sit(name, name) for name in people]
    app = DiamantApp(lang=lang, member=members[0])
    try:
        async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
            await until(pilot, lambda: "a-table-name-of-20ch" in screen_text(app))
            screen = await look(pilot, f"{lang}/{names} waiting", people)
            screen.whole(t("waiting.title", name="a-table-name-of-20ch"))
            screen.whole(" · ".join((t("rules.relic-variant.long"),
                                     t("waiting.timer", seconds="60"), t("waiting.hidden"))))
            screen.whole(people[0])
            assert t("waiting.you") in screen.row_with(people[0])
            for name in people[1:]:
                assert t("waiting.person") in screen.row_with(name)
            screen.whole(t("waiting.seat_free"))
            screen.flowing(t("waiting.free", count=1))
            check_footer(screen, t, "key.chat", "key.quit")
    finally:
        await table.close()
