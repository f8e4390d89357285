"""What the lobby asks the server besides tables: a quick game (a seek) and one's
own page (the history of finished games and the ratings).

Functions of the lobby screen (``scenes.screens.online.OnlineScene``), kept here so
that the screen stays a screen; each opens a dialog (mouse, keys and pad alike).
A seek pairs two players with the same clock and rated flag (docs/protocol.md);
the server seats both at a new, started table and the lobby opens it.
"""
from __future__ import annotations

from ..core.overlays import DialogScene
from ..store.terms import term
from ..store.words import N_, _, ngettext

GAMES_SHOWN = 8
RESULT_WORDS = {"1-0": N_("White won"), "0-1": N_("Black won"), "1/2-1/2": N_("Draw"), None: N_("No result")}


def clock_words(time_control: dict | None) -> str:
    return f"{time_control['base'] // 60}+{time_control['increment']}" if time_control else _("no clock")


def quick_game(screen, time_controls) -> None:
    """Seek a game: its clock (and for an account, rated or casual); or cancel the seek."""
    app, session = screen.app, screen.session
    if screen.seeking is not None:
        session.send({"type": "cancel_seek"})
        return

    def seek(control, rated):
        def run():
            app.scenes.remove(dialog)
            screen.seek_asked = True
            session.send({"type": "seek", "time": control, "rated": rated})
        return run
    buttons = [(label, seek(control, False)) for label, control in time_controls]
    if not session.guest:
        buttons += [(_("{clock}, rated").format(clock=_(label)), seek(control, True))
                    for label, control in time_controls]
    buttons.append((N_("Cancel"), lambda: app.scenes.remove(dialog)))
    lines = [N_("The first player seeking the same clock plays you at once.")]
    if session.guest:
        lines.append(N_("Guests play casual games; sign in for rated ones."))
    dialog = DialogScene(app, N_("Quick game"), lines, buttons,
                         on_back=lambda: app.scenes.remove(dialog))
    app.scenes.push(dialog)


def my_games(screen) -> None:
    """Ask for one's own page (accounts only: a guest's games are not kept by name)."""
    if screen.session.guest:
        screen.app.toast(_("Sign in to keep a history of your games"), 2.5)
        return
    screen.session.send({"type": "history", "name": screen.session.name})


def history_lines(page: dict) -> list[str]:
    """A player page in a few lines: the ratings per time class, then the latest games."""
    ratings = page.get("ratings") or {}
    lines = [" · ".join(f"{kind} {round(r['rating'])} ±{round(r['rd'])}{'?' if r.get('provisional') else ''} "
                        + ngettext("({n} game)", "({n} games)", r.get("games", 0)).format(n=r.get("games", 0))
                        for kind, r in sorted(ratings.items())) or _("No rated games yet")]
    games = page.get("games") or []
    for game in games[:GAMES_SHOWN]:
        rated = _("rated") if game.get("rated") else _("casual")
        lines.append(f"{game['white']} v {game['black']}: {term(RESULT_WORDS, game.get('result')) or '?'}"
                     " · " + ngettext("{n} move", "{n} moves", game.get("moves", 0)).format(n=game.get("moves", 0))
                     + f" · {rated} {game.get('time_class', '')} · {str(game.get('ended', ''))[:10]}")
    if not games:
        lines.append(_("No finished games yet"))
    return lines


def show_history(app, page: dict) -> None:
    dialog = DialogScene(app, _("{name}'s games").format(name=page.get("name", "?")), history_lines(page),
                         [(N_("Close"), lambda: app.scenes.remove(dialog))],
                         on_back=lambda: app.scenes.remove(dialog))
    app.scenes.push(dialog)


def seek_line(seek: dict | None) -> str:
    if seek is None:
        return ""
    return (_("Seeking a rated game, {clock}: waiting for an opponent…") if seek.get("rated") else
            _("Seeking a casual game, {clock}: waiting for an opponent…")).format(clock=clock_words(seek.get("time")))


__all__ = ["quick_game", "my_games", "history_lines", "show_history", "seek_line"]
