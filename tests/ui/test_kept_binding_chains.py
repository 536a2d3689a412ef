"""A screen's binding chain is worked out once while the focus stays where it is, and is
always the chain Textual would work out: keys act as they did."""

from textual.screen import Screen

from diamant_tui.engine.view import Decision
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.kept_binding_chains import _textual_binding_chain
from ui_helpers import FixedTable, T, mid_round, settled


def _values(chain) -> list:
    """A binding chain as comparable values: each node with its keys' bindings."""
    return [(node, {key: list(bindings) for key, bindings in kept.key_to_bindings.items()})
            for node, kept in chain]


def _as_textual_makes_it(screen: Screen) -> list:
    """The chain Textual works out for ``screen`` now."""
    return _values(_textual_binding_chain(screen))


def _kept(screen: Screen) -> list:
    """The chain the screen gives now (kept, or worked out again)."""
    return _values(screen._binding_chain)


def _count_made(monkeypatch) -> list[Screen]:
    """Every chain Textual works out from now on (the screen it is for)."""
    import diamant_tui.ui.kept_binding_chains as kept_chains

    made: list[Screen] = []

    def counted(screen: Screen):
        made.append(screen)
        return _textual_binding_chain(screen)

    monkeypatch.setattr(kept_chains, "_textual_binding_chain", counted)
    return made


async def test_keys_pressed_with_the_focus_still_use_one_chain_and_act_as_before(monkeypatch):
    """The chain was worked out twice for every key (and again for the key bar), each
    node's bindings copied. Typing in the chat box still types (its letters are taken out
    of the chain while it has the focus), and out of it the same letters choose."""
    table = mid_round(FixedTable())
    member = table.member(0)
    app = DiamantApp(lang="en", member=member)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        assert _kept(screen) == _as_textual_makes_it(screen)
        made = _count_made(monkeypatch)
        await pilot.press("t", *"cool")  # the chat box takes the focus, then the letters
        await settled(pilot)
        chat = screen.query_one("#chat-input")
        assert chat.value == "cool" and table.submitted == []
        assert _kept(screen) == _as_textual_makes_it(screen)
        # One chain for the key that opened the box, one for the box: not two per key.
        assert 1 <= len(made) <= 3, len(made)
        await pilot.press("escape")
        await settled(pilot)
        assert _kept(screen) == _as_textual_makes_it(screen)
        await pilot.press("c")
        await settled(pilot)
        assert table.submitted == [(0, Decision.CONTINUE)]
        assert _kept(screen) == _as_textual_makes_it(screen)


async def test_a_focus_moved_or_a_screen_shown_over_the_table_gets_its_own_chain():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        before = screen.focused
        first = _kept(screen)
        await pilot.press("right")  # the other choice's button
        await settled(pilot)
        assert screen.focused is not before
        assert _kept(screen) == _as_textual_makes_it(screen) != first
        screen.set_focus(None)
        assert [node for node, _ in _kept(screen)] == [screen, app]
        assert _kept(screen) == _as_textual_makes_it(screen)
        await pilot.press("question_mark")  # the rules, over the table
        await settled(pilot)
        rules = app.screen
        assert rules is not screen
        assert _kept(rules) == _as_textual_makes_it(rules)
        await pilot.press("escape")
        await settled(pilot)
        assert app.screen is screen
        table.decide(Ana="continue")
        table.reveal(T(3))  # a new turn: the choice's buttons again
        await settled(pilot)
        assert _kept(screen) == _as_textual_makes_it(screen)
