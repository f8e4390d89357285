"""Clock has no choices: "solving" it is playing it out."""
from __future__ import annotations

from .base import Status
from .clock import Clock
from .solver_common import NOT_WINNABLE, WINNABLE, Budget, SolveResult, game_for


def solve(game_or_deck, max_states=None, max_seconds=None, stop=None) -> SolveResult:
    """The play-out from the current position: winnable (with the line) or not."""
    game = game_for(Clock, game_or_deck)
    if game is game_or_deck:
        game = Clock.from_json(game.to_json())           # never touch the caller's game
    budget = Budget(None, None, None)
    played = len(game.history)
    while game.status is Status.PLAYING:
        budget.states += 1
        game.play(game.legal_moves()[0])
    line = game.history[played:]
    if game.status is Status.WON:
        return budget.result(WINNABLE, line)
    return budget.result(NOT_WINNABLE)


def wins(seed: int) -> bool:
    """Fast play-out of deal ``seed`` on plain lists (for win-rate counts)."""
    from .cards import deck_for_seed
    deck = deck_for_seed(seed)
    piles = [[] for _ in range(13)]               # 0: centre, 1..12 hours; bottom first
    for i, card in enumerate(deck[:48]):
        piles[i % 12 + 1].append(card.rank)
    piles[0] = [c.rank for c in deck[48:]]
    kings = 0
    centre = piles[0]
    card = centre.pop()
    while True:
        if card == 13:
            kings += 1
            if kings == 4:
                break
            card = centre.pop(0)
        else:
            pile = piles[card]
            pile.append(card)
            card = pile.pop(0)
    return all(all(c == h for c in piles[h]) for h in range(1, 13))
