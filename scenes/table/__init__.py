"""Shared machinery and art for the game scenes: card and board art, the card table,
the board's view, and the base classes every game scene builds on."""
