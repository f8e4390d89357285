"""Ignore a player, or stop ignoring one: a dialog opened from the chat, in the
lobby and at a table (its buttons take the mouse, the keys and a gamepad alike).

The server does the ignoring (docs/protocol.md: ``ignore``): an ignored player's
chat and quick-game seeks no longer reach this player, and an account's list is
kept with the account; the view (``game.net.view.OnlineState.ignoring``) holds
the list and drops the player's lines already shown.
"""
from __future__ import annotations

from ..core.overlays import DialogScene
from ..store.words import N_, _, ngettext

PEOPLE_SHOWN = 4       # players offered to ignore: the latest speakers first
IGNORED_SHOWN = 3      # players ignored, offered to be heard again


def chat_speakers(chat) -> list[str]:
    """Who spoke in a chat, the latest first, each once (the table's own notes,
    said by nobody, left out)."""
    return list(dict.fromkeys(who for who, _ in reversed(chat) if who))


def open_ignore(app, session, people: list[str]) -> None:
    """The dialog: "Ignore <name>" for the ``people`` at hand (not oneself, not
    those ignored already), "Stop ignoring <name>" for those ignored."""
    state, me = session.state, session.name.casefold()
    offered = [p for p in dict.fromkeys(people)
               if p and p.casefold() != me and not state.ignores(p)][:PEOPLE_SHOWN]
    ignoring = session.ignoring

    def choose(name: str, on: bool):
        def run():
            app.scenes.remove(dialog)
            session.ignore(name, on)
            app.toast((_("You ignore {name} now") if on else _("You hear {name} again")).format(name=name), 2.0)
        return run
    buttons = [(_("Ignore {name}").format(name=p), choose(p, True)) for p in offered]
    buttons += [(_("Stop ignoring {name}").format(name=p), choose(p, False))
                for p in ignoring[:IGNORED_SHOWN]]
    buttons.append((N_("Close"), lambda: app.scenes.remove(dialog)))
    lines = [N_("An ignored player's chat and quick-game seeks no longer reach you.")]
    if len(ignoring) > IGNORED_SHOWN:
        lines.append(ngettext("You ignore {n} player (the first {shown} shown).",
                              "You ignore {n} players (the first {shown} shown).",
                              len(ignoring)).format(n=len(ignoring), shown=IGNORED_SHOWN))
    if not offered and not ignoring:
        lines.append(N_("Nobody here to ignore yet."))
    if session.guest:
        lines.append("A guest's list lasts until the app closes: sign in to keep it.")
    dialog = DialogScene(app, N_("Ignore a player"), lines, buttons, update_below=True,
                         on_back=lambda: app.scenes.remove(dialog))
    app.scenes.push(dialog)


__all__ = ["open_ignore", "chat_speakers"]
