"""Everything on screen: the scene manager, input mapping, animation, the menu,
the card table and one scene per game. The rules live in ``game/``."""
