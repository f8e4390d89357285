"""Camelot (patience) played through input actions: mouse, keyboard, gamepad."""
import pygame
import pytest

from game.base import Status
from game.camelot_solitaire import CamelotSolitaire
from game.cards import FULL_DECK, Card
from scenes.games.camelot_solitaire_scene import CamelotSolitaireScene
from scenes.core.overlays import DialogScene

from .harness import click, drag, key, pad, post, settle, step
from .patience_input import card_point, open_scene, over_dialog, perform, play_line

PICTURES = "KC KD KH KS QC QD QH QS JC JD JH JS"
# Pictures first (each kind has just its own cells), then the four tens for the
# centre; then pairs making ten, four at a time: every line of play wins.
WIN_DECK = (PICTURES + " 10C 10D 10H 10S AC 9C AD 9D AH 9H AS 9S 2C 8C 2D 8D 2H 8H 2S 8S "
            "3C 7C 3D 7D 3H 7H 3S 7S 4C 6C 4D 6D 4H 6H 4S 6S 5C 5D 5H 5S")
# Pictures on their cells and four numbers with no ten and no pair: grid full.
FULL_DECK_LOSS = (PICTURES + " AC AD 2C 2D 10C 10D 10H 10S 9C 9D 9H 9S AH AS 2H 2S 3C 7C 3D 7D "
                  "3H 7H 3S 7S 4C 6C 4D 6D 4H 6H 4S 6S 5C 5D 5H 5S 8C 8D 8H 8S")


def deck_with(first: list[str]) -> str:
    """A deck starting with ``first``, the other cards after them."""
    rest = [c.code for c in CamelotSolitaire(seed=1).deck if c.code not in first]
    return " ".join(first + rest)


def start(deck=None, seed=5, size=(1280, 720), demo=False):
    game = CamelotSolitaire(deck=deck) if deck else CamelotSolitaire(seed=seed)
    return open_scene(CamelotSolitaireScene, game, size=size, seed=seed, demo=demo)


@pytest.mark.parametrize("cells,picture,words", [
    ((0, 3, 12, 15), "KH", "no free corner for the king of hearts"),
    ((1, 2, 13, 14), "QH", "no free place in the top or bottom row for the queen of hearts"),
    ((4, 7, 8, 11), "JH", "no free place in the left or right column for the jack of hearts"),
])
def test_a_picture_with_no_place_loses_at_once(cells, picture, words):
    app, scene = start(deck_with(["2C", "3C", "4C", "6C", picture]))
    line = []
    for cell in cells:
        line += ["t", f"w>c{cell}"]
    play_line(app, scene, line + ["t"])
    assert scene.game.status is Status.LOST and scene.game.status_reason == words
    dialog = over_dialog(app)
    assert dialog.title == "Game over"
    assert any(words.capitalize() in line for line in dialog.lines)


def test_a_full_grid_with_nothing_to_remove_loses():
    app, scene = start(FULL_DECK_LOSS)
    while scene.game.status is Status.PLAYING:
        play_line(app, scene, [scene.game.move_text(scene.game.computer_move())],
                  hows=("click", "drag"))
    assert scene.game.status_reason == "grid full, no ten and no pair"
    assert "Grid full, no ten and no pair." in over_dialog(app).lines


def test_stock_empty_with_nothing_to_remove_loses():
    # Unreachable with a whole deck (what is left always pairs off), so the
    # position is set up: the last ten goes, and nothing else can.
    game = CamelotSolitaire(seed=1)
    cells = [Card.parse(c) for c in "KC QC QD KD JC AC 2C JD JH 3C 10D JS KH QH QS KS".split()]
    game._stock, game.waste, game.cells, game.phase = [], None, cells, "removing"
    game.removed = [c for c in FULL_DECK if c not in cells]
    app, scene = open_scene(CamelotSolitaireScene, game)
    click(app, card_point(scene, "cell:10", 0))
    assert scene.game.status_reason == "stock empty, no ten and no pair left"
    assert "Stock empty, no ten and no pair left." in over_dialog(app).lines


def test_phase_stock_score_and_placeholders_on_screen():
    app, scene = start(WIN_DECK)
    assert scene.status_line().startswith("Phase: filling  ·  Stock 52")  # then the solver's word
    labels = {scene.table.slots[f"cell:{i}"].label for i in (0, 1, 4, 5)}
    assert labels == {"K", "Q", "J", None}
    play_line(app, scene, [scene.game.move_text(scene.game.computer_move()) for _ in range(1)])
    assert "Stock 51" in scene.status_line()
    while scene.game.phase == "filling":
        play_line(app, scene, [scene.game.move_text(scene.game.computer_move())], hows=("click",))
    assert scene.status_line().startswith("Phase: removing")
    ten = next(f"cell:{i}" for i, c in enumerate(scene.game.cells) if c and c.rank == 10)
    click(app, card_point(scene, ten, 0))          # a ten goes with one click
    assert scene.game.score == 1 and scene.score_line() == "Score 1 / 40"
    step(app, 5)
    assert ten not in [s.pile for s in scene.table.sprites.values()]
    assert any(s.leaving for s in scene.table.sprites.values())   # flying off
    settle(app, scene)
    assert not any(s.leaving for s in scene.table.sprites.values())


def test_legal_cells_glow_and_illegal_drop_slides_back():
    app, scene = start(deck_with(["KH"]))
    perform(app, scene, scene.game.parse_move("t"), "click")
    settle(app, scene)
    # the king is in hand: only the corners are legal
    assert set(scene.targets_of(scene.current_selection())) == {"cell:0", "cell:3", "cell:12", "cell:15"}
    king = scene.game.waste
    home = scene.table.card_rect(king).topleft
    drag(app, card_point(scene, "waste", 0), scene.table.top_rect("cell:5").center)
    assert scene.game.history == ["t"]
    assert any(text.endswith("the king of hearts goes in a corner") for text, _ in app._toasts)
    assert scene.flash and scene.flash[0] == "cell:5"
    settle(app, scene)
    assert scene.table.card_rect(king).topleft == home
    # a click on an illegal cell says why too, and keeps the king in hand
    click(app, scene.table.top_rect("cell:1").center)
    assert scene.game.history == ["t"] and scene.current_selection() == ("waste", 0)
    click(app, scene.table.top_rect("cell:3").center)
    assert scene.game.history == ["t", "w>c3"]


def test_pair_by_selecting_both_and_refused_pair():
    deck = deck_with(["3C", "7D", "4H", "5S"] + PICTURES.split())
    app, scene = start(deck)
    line = ["t", "w>c5", "t", "w>c6", "t", "w>c9", "t", "w>c10"]
    for cell, code in zip((0, 3, 12, 15, 1, 2, 13, 14, 4, 7, 8, 11), PICTURES.split()):
        line += ["t", f"w>c{cell}"]
    play_line(app, scene, line, hows=("click",))
    assert scene.game.phase == "removing"
    # 3 + 4 is refused (the engine says why), 3 + 7 goes
    click(app, card_point(scene, "cell:5", 0))
    assert scene.selection == ("cell:5", 0)
    assert set(scene.targets_of(scene.selection)) == {"cell:6"}
    drag(app, card_point(scene, "cell:5", 0), scene.table.top_rect("cell:9").center)
    assert any("make 7, not 10" in text for text, _ in app._toasts)
    settle(app, scene)
    click(app, card_point(scene, "cell:5", 0))
    click(app, card_point(scene, "cell:6", 0))
    assert scene.game.history[-1] == "c5+c6" and scene.game.score == 2
    # a picture cannot be picked up
    drag(app, card_point(scene, "cell:0", 0), scene.table.top_rect("cell:5").center)
    assert any("never removed" in text for text, _ in app._toasts)


def test_undo_brings_removed_cards_back():
    app, scene = start(WIN_DECK)
    while scene.game.score == 0:
        play_line(app, scene, [scene.game.move_text(scene.game.legal_moves()[0])], hows=("click",))
    key(app, pygame.K_u)
    settle(app, scene)
    assert scene.game.score == 0 and len(scene.table.sprites) == 52
    for pile, cards in scene.game.piles().items():
        for i, (card, _) in enumerate(cards):
            assert scene.table.card_rect(card).topleft == tuple(
                int(v) for v in scene.table.card_pos(pile, i, cards))


def test_keyboard_cycle_and_back():
    app, scene = start(deck_with(["KH"]))
    key(app, pygame.K_TAB)                 # the next pile with a move: the stock
    assert scene.focus == "stock"
    key(app, pygame.K_RETURN)
    settle(app, scene)
    key(app, pygame.K_TAB)                 # the king's first legal cell
    assert scene.focus == "cell:0"
    key(app, pygame.K_TAB)
    assert scene.focus == "cell:3"
    pad(app, pygame.CONTROLLER_BUTTON_A)
    assert scene.game.history == ["t", "w>c3"]
    key(app, pygame.K_ESCAPE)              # nothing selected: BACK pauses
    assert isinstance(app.scenes.top, DialogScene) and app.scenes.top.title == "Paused"


def test_double_click_places_the_waste_card():
    app, scene = start(seed=4)
    click(app, card_point(scene, "stock", 51))
    settle(app, scene)
    pos = card_point(scene, "waste", 0)
    for _ in range(2):
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    step(app)
    assert len(scene.game.history) == 2 and scene.game.waste is None
