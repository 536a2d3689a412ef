"""Alone in the cave: the best choice, worked out exactly.

Once every other player has gone back to camp, nothing but the unseen order of the deck
decides what the last player banks, so the choice is a small dynamic programme over the
cards left (:func:`solo_decision`).

For the most rubies (every round but the last) the programme needs no search: it is a
*monotone* stopping problem. Leaving after exactly one more card beats leaving now when
``deadly x stake < treasure left + relic gain`` (``stake``: carried, the path's rubies
and the relics there, all of it the lone player's); once that fails it fails after every
card that does not end the round (a treasure raises the stake as much as it lowers what
is left, a new hazard adds deadly cards, a relic raises the stake at least as much as it
lowers the relic gain). In such a problem the one-card look-ahead is the optimal rule, so
the programme's answer is that rule's: for rubies alone, "carried x 2h >= treasure left".

In the last round what counts is winning: the others' scores are final, and the
programme maximises the share of the win itself. Leaving now either wins (leave), loses
(go on: a disaster cannot cost more) or ties; only a tie needs a search, memoised over
the cards left, and it is short, since any treasure or relic then wins outright.
"""

from __future__ import annotations

from functools import lru_cache

from ..engine.cards import Rules
from ..engine.view import Decision, PlayerView
from ..engine.encoding import RELICS_VALUE

NODE_BUDGET = 4_000
"""States the last-round search may visit before giving up (a safeguard: from a tie it
needs a few dozen)."""


def alone(view: PlayerView) -> bool:
    """Whether the viewer is the only player left in the cave."""
    return view.me is not None and view.me.in_cave and len(view.in_cave) == 1


def _relic_points(rules: Rules, taken: int, count: int, printed: int) -> int:
    if rules is Rules.RELICS:
        return int(RELICS_VALUE[taken, min(count, RELICS_VALUE.shape[1] - 1)])
    return printed


def stake_of(view: PlayerView) -> int:
    """What leaving now banks when alone: carried, all the path's rubies, all its relics."""
    relics = [pc.card for pc in view.path if pc.card.code.startswith("R") and not pc.taken]
    printed = sum(getattr(card, "value", 0) or 0 for card in relics)
    points = _relic_points(view.rules, view.relics_taken, len(relics), printed)
    return view.me.carried + view.rubies_on_path + points


def most_rubies_leaves(view: PlayerView) -> bool:
    """The exact rule for the most rubies alone (see the module docstring)."""
    showing = {f"H:{h.value}" for h in view.hazards_showing}
    deadly = treasure = relics = printed = 0
    for code, count in view.deck:
        if code.startswith("T"):
            treasure += count * int(code[1:])
        elif code in showing:
            deadly += count
        elif code.startswith("R"):
            relics += count
            printed += count * int(code[1:] or 0)
    if view.rules is Rules.RELICS:
        on_path = sum(1 for pc in view.path if pc.card.code == "R" and not pc.taken)
        now = _relic_points(view.rules, view.relics_taken, on_path, 0)
        gain = relics * (_relic_points(view.rules, view.relics_taken, on_path + 1, 0) - now)
    else:
        gain = printed
    return deadly * stake_of(view) >= treasure + gain


def last_round_decision(view: PlayerView, scores: list[int]) -> Decision | None:
    """The choice that maximises the share of the win in the last round, alone.

    ``scores`` are everyone's scores before what the viewer carries now; the others'
    are final. None when the search would be too large.
    """
    me = view.seat
    best_other = max(s for seat, s in enumerate(scores) if seat != me)
    ties = 1 + sum(1 for seat, s in enumerate(scores) if seat != me and s == best_other)
    need = best_other - scores[me]  # the share of the win is 1 above this, 1/ties at it

    def share(x: int) -> float:
        return 1.0 if x > need else (1.0 / ties if x == need else 0.0)

    codes = tuple(code for code, count in view.deck if count)
    counts = tuple(count for code, count in view.deck if count)
    showing = frozenset(f"H:{h.value}" for h in view.hazards_showing)
    relics_path = [pc.card for pc in view.path if pc.card.code.startswith("R") and not pc.taken]
    rubies = view.me.carried + view.rubies_on_path
    rules, taken = view.rules, view.relics_taken
    visited = 0

    class _TooBig(Exception):
        pass

    @lru_cache(maxsize=None)
    def value(deck: tuple[int, ...], rubies: int, relics: int, printed: int,
              shown: frozenset) -> float:
        nonlocal visited
        visited += 1
        if visited > NODE_BUDGET:
            raise _TooBig
        stay = share(rubies + _relic_points(rules, taken, relics, printed))
        if stay >= 1.0:
            return stay
        # Even every treasure and relic left would not change the outcome: leave.
        top = rubies + sum(c * int(code[1:]) for code, c in zip(codes, deck) if code[0] == "T")
        top_relics = relics + sum(c for code, c in zip(codes, deck) if code[0] == "R")
        top_printed = printed + sum(c * int(code[1:] or 0) for code, c in zip(codes, deck)
                                    if code[0] == "R")
        if share(top + _relic_points(rules, taken, top_relics, top_printed)) <= stay:
            return stay
        return max(stay, go_on(deck, rubies, relics, printed, shown))

    def go_on(deck, rubies, relics, printed, shown) -> float:
        total = sum(deck)
        if not total:
            return 0.0
        worth = 0.0
        for i, c in enumerate(deck):
            if not c:
                continue
            code = codes[i]
            if code in shown:
                continue  # a disaster: nothing more is banked this round
            child = deck[:i] + (c - 1,) + deck[i + 1:]
            if code[0] == "T":
                after = value(child, rubies + int(code[1:]), relics, printed, shown)
            elif code[0] == "R":
                after = value(child, rubies, relics + 1, printed + int(code[1:] or 0), shown)
            else:
                after = value(child, rubies, relics, printed, shown | {code})
            worth += c * after
        return worth / total

    printed = sum(getattr(card, "value", 0) or 0 for card in relics_path)
    stay = share(rubies + _relic_points(rules, taken, len(relics_path), printed))
    # Leaving now wins outright: nothing can do better. Leaving now loses: going on can
    # only do better (a disaster costs nothing more). Only a tie needs the search.
    if stay >= 1.0:
        return Decision.LEAVE
    if stay <= 0.0:
        return Decision.CONTINUE
    try:
        more = go_on(counts, rubies, len(relics_path), printed, showing)
    except _TooBig:
        return None
    # A tie goes to leaving: the same chance of winning, with more in the chest.
    return Decision.LEAVE if stay >= more else Decision.CONTINUE


def solo_decision(view: PlayerView, scores: list[int]) -> Decision | None:
    """The exact choice alone in the cave, or None when not alone (or too large)."""
    if not alone(view):
        return None
    if view.round >= view.rounds:
        return last_round_decision(view, scores)
    return Decision.LEAVE if most_rubies_leaves(view) else Decision.CONTINUE
