"""The screens around the games: the main menu, help, statistics, and going between them."""
