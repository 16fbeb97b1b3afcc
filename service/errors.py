"""Refusals the table service raises; like the engines' errors, their text is shown to the player unchanged."""


class RefusedError(Exception):
    """A request the bot turns down with a reason (not your game, host only, game full ...); nothing changed."""
