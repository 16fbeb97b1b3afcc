"""Small text helpers: Discord's length limits, and card suits that read on every theme."""

import re

import discord

# What becomes of a resigned player's turns, told in these words everywhere: `/rules`, the lobby's timer line and the
# README (a test finds this sentence in all of them). It is what the engines do (engine/core.py `apply`): the seat
# places last, its turns are played by the game's fixed simple move (`auto_move`), and too few players end the game.
RESIGNED_TURNS = (
    "A resigned player places last, and the bot plays each of their later turns with the simplest move the rules "
    "allow; a game left with one player ends at once."
)
CONTENT_LIMIT = 2000  # characters in a message's content
QUOTE_LIMIT = 60  # characters of a player's own text quoted back in a reply
AUTOCOMPLETE_LIMIT = 25  # suggestions Discord shows for an option


def clip(text: str, limit: int) -> str:
    """`text` cut to Discord's `limit`, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Discord draws ♠ and ♣ as emoji, dark grey on its dark theme and hard to read; U+FE0E asks for the text glyph,
# drawn in the text colour on either theme. ♥ and ♦ stay emoji: their red reads everywhere.
TEXT_STYLE = "\ufe0e"
_BLACK_SUIT = re.compile("([♠♣])(?!\ufe0e)")


def legible(text: str) -> str:
    """`text` with its black suits drawn as text, so they read on Discord's dark theme too."""
    return _BLACK_SUIT.sub(r"\1" + TEXT_STYLE, text)


def legible_embed(embed: discord.Embed) -> discord.Embed:
    """A copy of `embed` whose texts have legible suits."""
    data = embed.to_dict()
    for key in ("title", "description"):
        if key in data:
            data[key] = legible(data[key])
    for field in data.get("fields", []):
        field["name"], field["value"] = legible(field["name"]), legible(field["value"])
    if "footer" in data:
        data["footer"]["text"] = legible(data["footer"]["text"])
    return discord.Embed.from_dict(data)


def jump_link(title: str, guild_id: int, channel_id: int, message_id: int) -> str:
    """`title` as a Markdown link that opens the message in Discord, however far up its channel it is."""
    return f"[{title}](https://discord.com/channels/{guild_id}/{channel_id}/{message_id})"
