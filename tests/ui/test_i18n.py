"""Every visible text goes through one catalogue per language, and they agree."""

from __future__ import annotations

import re
import string

import pytest

from diamant_tui.engine.cards import HazardType, Rules
from diamant_tui.i18n import (
    CATALOGUES,
    LANGUAGES,
    Translator,
    UnknownLanguage,
    detect_language,
    parse_language,
)
from diamant_tui.ui.setup_choices import LEVEL_CANDIDATES

ENGLISH = CATALOGUES["en"]
OFFICIAL = {  # RULES.md, "Official words per language"
    "en": ("Continue", "Exit"),
    "fr": ("Continuer", "Sortir"),
    "es": ("¡Vamos!", "Me las piro"),
    "uk": ("Углиб", "Назад"),
}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang):
    catalogue = CATALOGUES[lang]
    assert sorted(set(ENGLISH) - set(catalogue)) == []
    assert sorted(set(catalogue) - set(ENGLISH)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_format_placeholders_match_english(lang):
    for key, text in CATALOGUES[lang].items():
        assert placeholders(text) == placeholders(ENGLISH[key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_keys_built_from_game_names_exist(lang):
    """Hazards, rule sets and strengths are looked up by their names."""
    catalogue = CATALOGUES[lang]
    for hazard in HazardType:
        assert f"hazard.{hazard.value}" in catalogue
        assert len(catalogue[f"hazard_short.{hazard.value}"]) <= 7  # fits in a card
    for rules in Rules:
        assert f"rules.{rules.value}" in catalogue and f"rules.{rules.value}.long" in catalogue
    for level in LEVEL_CANDIDATES:
        assert f"level.{level}" in catalogue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hazards_name_on_a_card_is_a_word_or_marked_as_cut(lang):
    """A card holds seven cells. A hazard's name that does not fit is cut and marked with a
    period (``Araign.``), or given in the singular (``Boulder``): "Serpien" on a Spanish
    card, the deck's panel and the round bar read as a misspelt word."""
    catalogue = CATALOGUES[lang]
    for hazard in HazardType:
        name = catalogue[f"hazard.{hazard.value}"]
        short = catalogue[f"hazard_short.{hazard.value}"].lower()
        assert short in (name, name.removesuffix("s")) or (
            short.endswith(".") and name.startswith(short[:-1])), (hazard, short)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_official_words_are_used(lang):
    cont, leave = OFFICIAL[lang]
    t = Translator(lang)
    assert t("decision.continue") == cont and t("decision.leave") == leave
    assert cont in t("rules.body") and leave in t("rules.body")


def test_the_rules_cover_all_three_rule_sets_in_every_language():
    for lang in LANGUAGES:
        body = Translator(lang)("rules.body")
        for year in ("2005", "2016", "2021"):
            assert year in body, (lang, year)


def test_the_language_comes_from_the_locale():
    assert detect_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert detect_language({"LC_ALL": "uk_UA.UTF-8", "LANG": "fr_FR.UTF-8"}) == "uk"
    assert detect_language({"LC_MESSAGES": "es_ES", "LANG": "en_US"}) == "es"
    assert detect_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert detect_language({}) == "en"


def test_an_unknown_language_is_named_in_the_error():
    with pytest.raises(UnknownLanguage, match="'de'.*en, fr, es, uk"):
        parse_language("de")


def test_two_translators_do_not_share_a_language():
    """Several apps in one process may speak different languages."""
    en, uk = Translator("en"), Translator("uk")
    assert en("place.camp") == "Camp" and uk("place.camp") == "Табір"


def test_ukrainian_rubies_left_on_a_card_agree_with_their_number():
    """"2♦ лишаються", as "2 рубіни лишаються": with two to four the verb is plural; one,
    and five or more (counted in the genitive), take the singular ("5♦ лишається")."""
    t = Translator("uk")
    said = {n: t("event.left_on_card", count=n, ruby="♦") for n in (1, 2, 4, 5, 11, 22)}
    assert said == {1: "1♦ лишається на карті", 2: "2♦ лишаються на карті",
                    4: "4♦ лишаються на карті", 5: "5♦ лишається на карті",
                    11: "11♦ лишається на карті", 22: "22♦ лишаються на карті"}


# The word a language's texts use for a thing, and the synonyms that crept in beside it:
# a player reads one word on the card, in the deck's panel, the log and the rules.
ONE_WORD = {
    "uk": [("Халепа", r"[Пп]астк"),  # a hazard card is "Пастка" nowhere else
           ("сеанс", r"сесі")],  # the limits say "сеанс", so does the admin screen
    "es": [("computadora", r"máquina")],  # a computer player, as at the table
    "fr": [("discussion", r"\bchat\b")],  # "chat" is a cat; the chat box is "Discussion"
}


@pytest.mark.parametrize("lang", sorted(ONE_WORD))
def test_a_thing_has_one_name_on_every_screen(lang):
    """The game's words are the same in game, help, lobby and admin screens."""
    for word, avoided in ONE_WORD[lang]:
        strays = {key: text for key, text in CATALOGUES[lang].items()
                  if re.search(avoided, text)}
        assert strays == {}, (word, strays)
        assert any(word.lower() in text.lower() for text in CATALOGUES[lang].values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_names_its_kind_as_the_deck_and_the_log_do(lang):
    """A big card's kind ("Trap") is the word the deck's panel and the log give it."""
    t = Translator(lang)
    for kind, deck, said in (("treasure", "deck.treasure", "card.treasure"),
                             ("hazard", "deck.hazard", "card.hazard"),
                             ("relic", "deck.relic", "card.relic")):
        word = t(f"card.kind_{kind}")
        assert t(deck, count=1, ruby="♦", rubies=1).startswith(word), (kind, word)
        assert t(said, value=1, hazard="x").startswith(word), (kind, word)


# Masculine forms a text gave a player whose gender it cannot know: the one reading it
# ("pour vous seul", "a ti mismo") or someone named ("{name} a été signalé").
GENDERED = {
    "fr": [r"vous seul\b", r"vous vous êtes (assis|reconnecté)", r"\(invité\)",
           r"\(reconnu ", r"\{name\}[^.]* a été (signalé|expulsé)", r"vous serez déconnecté"],
    "es": [r"ti mismo", r"\(invitado\)", r"\(reconocido ", r"ha sido expulsado"],
    "uk": [r"\{(name|reporter)\} (не казав|поскаржився)"],
}


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_a_player_is_spoken_to_and_of_whatever_their_gender(lang):
    """Zoé reported, Ana who wants to report herself, Оля whose lines were kept: no text
    takes a masculine form for them."""
    strays = {key: text for key, text in CATALOGUES[lang].items()
              if any(re.search(form, text) for form in GENDERED[lang])}
    assert strays == {}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", ["server.idle", "limit.waiting"])
def test_minutes_told_in_words_agree_with_their_number(lang, key):
    """"1 minute", "2 minutes"; Ukrainian writes "хв", which every number takes."""
    t = Translator(lang)
    one, two = (t(key, count=n, minutes=n, name="den") for n in (1, 2))
    unit = {"en": ("1 minute ", "2 minutes "), "fr": ("1 minute ", "2 minutes "),
            "es": ("1 minuto ", "2 minutos "), "uk": ("1 хв ", "2 хв ")}[lang]
    assert unit[0] in one and unit[1] in two, (one, two)
