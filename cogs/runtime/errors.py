"""One place where failures become replies: refusals get their reason, bugs get logged and an apology.

A refusal's reason is a message (`service.errors.refusal_message`: the engine's, the service's, or the store's facts
as a message); it is said in the language of the one who acted (`private_locale`), since the reply is ephemeral and
only they read it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from cogs.runtime.language import private_locale
from cogs.runtime.text import CONTENT_LIMIT, clip, legible
from engine.message import Message
from i18n import SOURCE_LOCALE, render_message, say, sentence_start
from service.errors import refusal_message
from service.tables import USER_ERRORS

log = logging.getLogger(__name__)

APOLOGY_ID = "refused.apology"
APOLOGY = say(SOURCE_LOCALE, APOLOGY_ID)
"""The apology for a bug, in English (tests compare with it); players read it in their language."""


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


def sentence(error: BaseException | Message, locale: str = SOURCE_LOCALE) -> str:
    """A refusal (or its message) said in `locale` as a sentence: a reason may start with a lower-case item."""
    message = error if isinstance(error, Message) else refusal_message(error)
    return sentence_start(render_message(message, locale))


async def refuse(interaction: discord.Interaction, error: BaseException | Message) -> None:
    """Tell the user who acted why their action was refused, in their own language."""
    await reply_ephemeral(interaction, sentence(error, private_locale(interaction)))


def check_failure_text(error: app_commands.CheckFailure, locale: str) -> str:
    """Why a command's check refused the user, in `locale` (discord.py's own texts are English)."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return say(locale, "refused.not-in-dms")
    if isinstance(error, app_commands.BotMissingPermissions):
        return say(locale, "refused.bot-missing-permissions")
    if isinstance(error, app_commands.MissingPermissions):
        return say(locale, "refused.missing-permissions")
    return say(locale, "refused.cannot-use-here")


@contextlib.asynccontextmanager
async def refusals_answered(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Around a command body: a refusal becomes an ephemeral reply with its reason, not an error.

    Refusals are expected (wrong turn, illegal move, not your game), so they never reach the tree's
    error handler, which is kept for bugs.
    """
    try:
        yield
    except USER_ERRORS as error:
        await refuse(interaction, error)
    except InteractionExpiredError:
        log.info("an interaction of user %s expired before it was acknowledged; nothing was done", interaction.user.id)


async def report(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """Tell the user why their action failed; log anything that is not a plain refusal."""
    cause = getattr(error, "original", error)
    if isinstance(cause, USER_ERRORS):
        await refuse(interaction, cause)
        return
    if isinstance(cause, InteractionExpiredError):
        log.info("%s expired before it was acknowledged; nothing was done", where)
        return
    if isinstance(cause, app_commands.CheckFailure):
        await reply_ephemeral(interaction, check_failure_text(cause, private_locale(interaction)))
        return
    log.error(
        "%s failed (user %s, guild %s, channel %s)",
        where,
        interaction.user.id,
        interaction.guild_id,
        interaction.channel_id,
        exc_info=cause,
    )
    await reply_ephemeral(interaction, say(private_locale(interaction), APOLOGY_ID))


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
            await refuse(interaction, error)
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
            await reply_ephemeral(interaction, say(private_locale(interaction), APOLOGY_ID))
            raise

    return wrapper
