"""The app and its plumbing: window and loop, scene stack, input mapped to actions,
tweens, the UI kit (fonts, buttons, panels, dialogs) and sound. Knows no game."""
