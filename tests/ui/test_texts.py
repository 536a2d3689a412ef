"""The words of the game in four languages: natural phrases, right plurals, lines that
fit the message line at 80 columns, and panels that say only what is true."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from diamant_tui.engine.cards import Hazard, HazardType, Relic, Rules, Treasure
from diamant_tui.engine.events import (
    CardRevealed,
    DecisionsRevealed,
    Disaster,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    RoundStarted,
)
from diamant_tui import i18n
from diamant_tui.i18n import LANGUAGES, Translator
from diamant_tui.table import ChatLimits, SeatGivenToComputer
from diamant_tui.table.chat import ChatAllowances
from diamant_tui.table.info import ChatRejected
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.describe import describe
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.widgets.deck_info import DeckInfo
from ui_helpers import (
    final_shown,
    NAMES,
    H,
    FixedTable,
    T,
    mid_round,
    round_summary_up,
    screen_text,
    summary_shown,
    table_shown,
    until,
    whole_game,
)

LONG = ("Maximiliano-Juan", "Oleksandra-Petro", "Bartholomew Kent", "Anna-Kateryna Lo",
        "Jean-Christophe1", "Wolfgang-Amadeus", "Guadalupe-Inés M", "Konstantinos Pap")
RELICS = tuple((Relic(v), v) for v in (5, 7, 8, 10, 12))
LINE_WIDTH = 78
"""The message line at 80 columns, less its padding."""


def treasure(value: int, players: int, remainder: int) -> CardRevealed:
    share = (value - remainder) // players
    return CardRevealed(1, 1, Treasure(value), tuple(range(players)), share, remainder)


def left(picked: int, relics: int = 0, banked: int = 24) -> PlayerLeft:
    return PlayerLeft(0, banked - picked, picked, RELICS[:relics], banked)


# -- phrases ------------------------------------------------------------------------------


def test_the_spanish_prompt_has_no_stacked_marks():
    prompt = Translator("es")("decision.prompt")
    assert "¿¡" not in prompt and "!?" not in prompt
    assert "¡Vamos!" in prompt and "Me las piro" in prompt


def test_what_stays_on_a_card_agrees_with_its_number():
    fr, es = Translator("fr"), Translator("es")
    assert "1♦ reste sur la carte" in describe(fr, LONG, treasure(9, 4, 1))
    assert "3♦ restent sur la carte" in describe(fr, LONG, treasure(11, 4, 3))
    assert "0♦ reste sur la carte" in describe(fr, LONG, treasure(8, 4, 0))  # French: 0 like 1
    assert "1♦ queda en la carta" in describe(es, LONG, treasure(9, 4, 1))
    assert "3♦ quedan en la carta" in describe(es, LONG, treasure(11, 4, 3))


@pytest.mark.parametrize("lang, alone, three", [
    ("en", "Treasure 11: 11♦ for the only one in the cave, 0♦ left",
     "Treasure 11: 3♦ each for the 3 in the cave, 2♦ left"),
    ("fr", "Trésor 11 : 11♦ pour la seule personne dans la grotte, 0♦ reste",
     "Trésor 11 : 3♦ à chacun des 3 dans la grotte, 2♦ restent"),
    ("es", "Tesoro 11: 11♦ para quien sigue en la cueva, 0♦ quedan",
     "Tesoro 11: 3♦ para cada uno de los 3 en la cueva, 2♦ quedan"),
    ("uk", "Скарб 11: 11♦ єдиному гравцеві в печері, 0♦",
     "Скарб 11: по 3♦ кожному з 3 у печері, 2♦"),
])
def test_a_treasure_for_one_player_in_the_cave_is_all_theirs_in_the_singular(lang, alone, three):
    """"The rubies are shared equally among the players in the cave": one player left
    there takes them all, and the line speaks of one player, not of "each of the 1"."""
    t = Translator(lang)
    assert alone in describe(t, LONG, treasure(11, 1, 0))
    assert three in describe(t, LONG, treasure(11, 3, 2))
    if lang == "uk":  # the third form: five and more
        assert "по 2♦ кожному з 5 у печері" in describe(t, LONG, treasure(11, 5, 1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_relics_taken_are_counted_in_words_not_with_a_bracketed_plural(lang):
    t = Translator(lang)
    one, two, five = (describe(t, LONG, left(3, n)) for n in (1, 2, 5))
    for text in (one, two, five):
        assert "(s)" not in text and "(и)" not in text
    words = {  # the relics' points: 5, 5 + 7, 5 + 7 + 8 + 10 + 12
        "en": ("1 relic worth 5", "2 relics worth 12"),
        "fr": ("1 relique valant 5", "2 reliques valant 12"),
        "es": ("1 reliquia que vale 5", "2 reliquias que valen 12"),
        "uk": ("1 реліквію вартістю 5", "2 реліквії вартістю 12"),
    }[lang]
    assert words[0] in one and words[1] in two
    if lang == "uk":
        assert "5 реліквій вартістю 42" in five


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_picked_up_is_not_mentioned(lang):
    t = Translator(lang)
    assert "0♦" not in describe(t, LONG, left(0))
    assert "0♦" not in describe(t, LONG, left(0, relics=2))
    assert "7♦" in describe(t, LONG, left(7))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_seat_given_to_a_computer_names_who_left_as_written_and_marks_the_computer(lang):
    """A rematch without a person who left: the line names them as they were written
    (markup, wide characters), and marks the computer player that takes their seat as
    the player list marks one, so a person who shows as "дмитро" and a computer player
    "Dmytro" cannot be taken for each other, in every language."""
    t = Translator(lang)
    text = describe(t, LONG, SeatGivenToComputer(1, "[b]дмитро宝", "Dmytro"))
    assert "[b]дмитро宝" in text
    assert f"Dmytro {t('players.computer')}" in text
    assert "{" not in text and cell_len(text) <= 78, text


def test_the_english_disaster_reads_naturally():
    t = Translator("en")
    for hazard in HazardType:
        event = Disaster(1, hazard, ((0, 3),), Hazard(hazard))
        text = describe(t, LONG, event)
        assert f"DISASTER! The {hazard.value} again!" in text
        assert "Second" not in text
        assert t("summary.disaster", hazard=hazard.value) == f"DISASTER! The {hazard.value} again!"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_disaster_names_only_who_lost_something(lang):
    t = Translator(lang)
    event = Disaster(1, HazardType.LAVA, ((0, 12), (1, 0), (2, 3)), Hazard(HazardType.LAVA))
    text = describe(t, NAMES, event)
    assert f"{NAMES[0]} −12♦" in text and f"{NAMES[2]} −3♦" in text
    assert NAMES[1] not in text and "−0" not in text
    nobody = describe(t, NAMES, Disaster(1, HazardType.LAVA, ((0, 0), (1, 0)),
                                         Hazard(HazardType.LAVA)))
    assert NAMES[0] not in nobody and "−" not in nobody
    # Too many long names for the line: the losers are counted, with what they lost.
    crowd = Disaster(1, HazardType.LAVA, tuple((s, 2 + s) for s in range(8)) + ((8, 0),),
                     Hazard(HazardType.LAVA))
    text = describe(t, LONG + ("Zoe",), crowd)
    assert "8" in text and "44♦" in text and "Zoe" not in text and cell_len(text) <= LINE_WIDTH


def test_plural_forms_follow_each_language():
    plural_form = i18n.plural_form
    assert [plural_form("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural_form("uk", n) for n in (1, 2, 5, 11, 12, 21, 22, 25)] == [
        "one", "few", "many", "many", "many", "one", "few", "many"]
    uk = Translator("uk")
    assert uk("event.relics", count=21, points=1) == "21 реліквію вартістю 1"
    assert uk("event.relics", count=13, points=1) == "13 реліквій вартістю 1"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hazards_two_letters_are_distinct(lang):
    t = Translator(lang)
    letters = [t(f"hazard_abbr.{h.value}") for h in HazardType]
    assert len(set(letters)) == 5 and all(cell_len(x) == 2 for x in letters), letters


# -- every message fits its line ----------------------------------------------------------

EVENTS = [
    RoundStarted(5, Relic(12)),
    RoundStarted(1),
    treasure(17, 3, 2),
    treasure(17, 8, 1),
    treasure(17, 1, 0),
    CardRevealed(5, 25, Hazard(HazardType.BOULDERS), first_of_type=True),
    CardRevealed(5, 26, Hazard(HazardType.BOULDERS)),
    CardRevealed(5, 25, Relic(12)),
    DecisionsRevealed(5, 3, (0, 1, 2, 3, 4, 5), (6, 7)),
    DecisionsRevealed(5, 3, (0, 1, 2), (3, 4, 5, 6, 7)),
    DecisionsRevealed(5, 3, (0, 1, 2, 3, 4, 5, 6, 7), ()),
    left(0, banked=100),
    left(119, banked=219),
    left(0, relics=1, banked=100),
    left(119, relics=5, banked=219),
    Disaster(5, HazardType.BOULDERS, ((0, 24), (1, 0)), Hazard(HazardType.BOULDERS)),
    Disaster(5, HazardType.BOULDERS, tuple((s, 39) for s in range(8)), Hazard(HazardType.BOULDERS)),
    RoundEnded(5, HazardType.BOULDERS, 0, 0),
    RoundEnded(5, None, 0, 0),
    GameEnded((1,) * 8, (0, 1)),
    GameEnded((1,) * 8, tuple(range(8))),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_fits_the_line_with_the_longest_names(lang):
    """Names of 16 characters and three-digit numbers: one line of 78 cells each."""
    t = Translator(lang)
    for event in EVENTS:
        text = describe(t, LONG, event)
        assert cell_len(text) <= LINE_WIDTH, (event, text)


# -- panels that say only what is true ---------------------------------------------------


async def test_the_round_summary_counts_relic_points_apart_from_rubies():
    """Bruno leaves alone with 3 rubies and a relic worth 5: +3♦, +5, score 8."""
    table = FixedTable(rules=Rules.RELICS)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        table.reveal(T(9))  # 2 each, 1 left on the card
        table.everyone("continue")
        table.reveal(Relic())
        table.decide(Ana="continue", Bruno="leave", Chiara="continue", Dmytro="continue")
        table.reveal(H("spiders"))
        table.everyone("continue")
        table.reveal(H("spiders"))
        await until(pilot, lambda: summary_shown(app))
        await pilot.pause()
        dialog = [line.split("│")[1] for line in screen_text(app).splitlines()
                  if line.count("│") >= 2]
        row = next(line for line in dialog if "Bruno" in line)
        assert row.split() == ["Bruno", "+3♦", "+5", "8"], row
        header = next(line for line in screen_text(app).splitlines() if "Rubies" in line)
        assert "Relics" in header and "Score" in header


async def test_the_deck_panel_warns_of_nothing_once_the_game_is_over():
    """After the last round (and between rounds) no card can follow: no "!" marks and no
    disaster chance, even with the chance switched on."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        await pilot.press("enter")
        await until(pilot, lambda: table_shown(app))
        await pilot.press("p")
        await pilot.pause()
        deck = app.screen.query_one(DeckInfo)
        assert deck.show_chance
        text = deck.render().plain
        assert "!" not in text and "Disaster chance" not in text, text
        assert "Seen: Spiders Snakes" in text  # what the path on show holds

        table.reveal(T(5))  # round 2: the chance is back with the first card
        await pilot.pause()
        assert "Disaster chance" in deck.render().plain

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one(DeckInfo).show_chance = True
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        table_screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        text = table_screen.query_one(DeckInfo).render().plain
        assert "!" not in text and "Disaster chance" not in text, text


async def test_the_log_over_the_table_has_a_title_and_a_way_out_and_leaves_the_choice_visible():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="fr", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert "Journal de la partie" in lines[0]
        assert any("g ou Échap : fermer" in line for line in lines)
        assert re.search(r"Continuer \[c\] +Sortir \[l\] +À vous : Continuer ou Sortir ?", lines[-3])
        await pilot.press("g")
        await pilot.pause()
        assert "Journal de la partie" not in screen_text(app)


def test_a_long_list_of_chosen_computer_players_is_counted_not_cut():
    from diamant_tui.ui.screens.setup import CHOICE_ROOM, custom_label

    bots = ("expert", "ev", "risk", "hazards:2", "carry:25", "cards:4", "random:0.3")
    for lang in LANGUAGES:
        t = Translator(lang)
        label = custom_label(t, bots)
        assert cell_len(label) <= CHOICE_ROOM and "expert, ev" in label, label
        assert re.search(r"\b[34]\b", label), label  # how many more
    assert custom_label(Translator("en"), ("ev", "ev", "risk")) == "Chosen: ev ×2, risk"


@pytest.mark.parametrize("language", LANGUAGES)
def test_arriving_after_a_relic_is_told_it_as_the_table_was(language):
    """Someone arriving at a game (a spectator, a person back after the server's restart)
    whose last card is a relic reads the line the others read when it was turned, not
    the card's bare name."""
    from diamant_tui.engine.game import Game, GameConfig
    from diamant_tui.ui.describe import arrival_lines

    game = Game(GameConfig(("Ana", "Bruno", "Chiara"), Rules.RELICS), seed=1)
    relic = next(card for card, _ in game.reveal_outcomes() if isinstance(card, Relic))
    events = game.reveal(relic)
    t = Translator(language)
    told = describe(t, ("Ana", "Bruno", "Chiara"), events[-1])
    assert arrival_lines(t, game.view_for(1)) == [t("event.round_started", round=1), told]


@pytest.mark.parametrize("allowance, key", [("person", "limit.chat_person"),
                                            ("watchers", "limit.chat_watchers"),
                                            ("table", "limit.chat_table")])
def test_a_chat_refusal_counts_its_lines_in_words_of_each_language(allowance, key):
    """An allowance of one line reads "1 line" ("1 ligne", "1 línea", "1 рядок"), not
    "1 lines"; in Ukrainian two and five lines take their own forms."""
    def refusal(most: int) -> ChatRejected:
        limits = ChatLimits(**{"person": 99, "watchers": 99, "table": 99, allowance: most})
        allowances = ChatAllowances(limits, "cave")
        with pytest.raises(ChatRejected) as refused:
            for _ in range(most + 1):
                allowances.count("ann", True, 0.0, 4)
        assert refused.value.key == key
        return refused.value

    one, two, five = refusal(1), refusal(2), refusal(5)
    for lang, word in (("en", "1 line "), ("fr", "1 ligne "), ("es", "1 línea "),
                       ("uk", "1 рядок ")):
        assert word in one.text(Translator(lang)), lang
    assert "2 lines " in two.text(Translator("en"))
    assert "2 рядки " in two.text(Translator("uk"))
    assert "5 рядків " in five.text(Translator("uk"))


async def test_a_relic_on_the_path_shows_what_it_is_worth_if_taken_now():
    """In the 2016 edition a relic has no printed value: the card on the path shows what
    taking it now brings (5 for the game's first three relics taken, 10 for the next
    two, counted in the order they lie), as the relic tokens left show it at a table.
    (The card showed no value, and a person choosing to leave alone had to count.)"""
    table = FixedTable(rules=Rules.RELICS)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        for taker in ("Bruno", "Chiara"):  # two relics taken, one by one
            table.reveal(T(9))
            table.everyone("continue")
            table.reveal(Relic())
            table.decide(**{name: "leave" if name == taker else "continue"
                            for name in ("Ana", "Bruno", "Chiara", "Dmytro")})
            table.reveal(H("spiders"))
            table.everyone("continue")
            table.reveal(H("spiders"))
            await until(pilot, lambda: summary_shown(app))
        table.reveal(Relic())  # the third relic taken will be worth 5, the fourth 10
        table.everyone("continue")
        table.reveal(Relic())
        await pilot.pause()
        text = screen_text(app)
        edges = [line for line in text.splitlines() if "┗" in line]
        assert edges and "5" in edges[0] and "10" in edges[0], text
        assert edges[0].index("5") < edges[0].index("10")
