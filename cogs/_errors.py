"""One place where failures become replies: refusals get their reason, bugs get logged and an apology."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from cogs._text import CONTENT_LIMIT, clip, legible
from service.tables import USER_ERRORS

log = logging.getLogger(__name__)

APOLOGY = "Something went wrong on our side; the game did not change. Please try again."


class InteractionExpiredError(Exception):
    """Discord no longer takes an answer to this interaction (it waited too long); nothing was done."""


async def acknowledge(interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False) -> None:
    """Acknowledge first, then work: Discord's 3-second deadline is met before any lock, database or Discord wait.

    Raises:
        InteractionExpiredError: too late; the player was already shown that the interaction failed, so nothing happens.
    """
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except discord.NotFound as error:
        raise InteractionExpiredError() from error


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer only the user who acted, whether or not the interaction was already acknowledged."""
    text = clip(legible(text), CONTENT_LIMIT)  # a refusal may quote the player's own (long) text
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an ephemeral reply to user %s", interaction.user.id, exc_info=True)


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the user may manage this server's games (Manage Server), whoever hosts them."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def sentence(error: BaseException) -> str:
    """A refusal's message as a sentence (the store's and engine's messages may start in lower case)."""
    text = str(error)
    return text[:1].upper() + text[1:]


@contextlib.asynccontextmanager
async def refusals_answered(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Around a command body: a refusal becomes an ephemeral reply with its reason, not an error.

    Refusals are expected (wrong turn, illegal move, not your game), so they never reach the tree's
    error handler, which is kept for bugs.
    """
    try:
        yield
    except USER_ERRORS as error:
        await reply_ephemeral(interaction, sentence(error))
    except InteractionExpiredError:
        log.info("an interaction of user %s expired before it was acknowledged; nothing was done", interaction.user.id)


async def report(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """Tell the user why their action failed; log anything that is not a plain refusal."""
    cause = getattr(error, "original", error)
    if isinstance(cause, USER_ERRORS):
        await reply_ephemeral(interaction, sentence(cause))
        return
    if isinstance(cause, InteractionExpiredError):
        log.info("%s expired before it was acknowledged; nothing was done", where)
        return
    if isinstance(cause, app_commands.CheckFailure):
        await reply_ephemeral(interaction, str(cause) or "You can't use that here.")
        return
    log.error(
        "%s failed (user %s, guild %s, channel %s)",
        where,
        interaction.user.id,
        interaction.guild_id,
        interaction.channel_id,
        exc_info=cause,
    )
    await reply_ephemeral(interaction, APOLOGY)


class GameTree(app_commands.CommandTree):
    """The command tree; every slash command error ends here."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Answer the user and log bugs with their context."""
        name = interaction.command.qualified_name if interaction.command else "command"
        await report(interaction, error, f"/{name}")


Callback = Callable[[Any, discord.Interaction], Coroutine[Any, Any, None]]


def guarded(callback: Callback) -> Callback:
    """Wrap a component callback: refusals get their reason; a bug gets an apology and goes on to be logged.

    discord.py only logs a component's errors, so without this the user would see "This interaction failed".
    """

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except USER_ERRORS as error:
            await reply_ephemeral(interaction, sentence(error))
        except InteractionExpiredError:
            log.info("a click of user %s expired before it was acknowledged; nothing was done", interaction.user.id)
        except Exception:
            custom_id = interaction.data.get("custom_id") if interaction.data else None
            log.error(
                "component %s failed (user %s, guild %s, channel %s); traceback follows from discord.py",
                custom_id,
                interaction.user.id,
                interaction.guild_id,
                interaction.channel_id,
            )
            await reply_ephemeral(interaction, APOLOGY)
            raise

    return wrapper
