"""Cards in Discord text: black suits drawn as text glyphs so they read on the dark theme."""

import discord

from cogs.runtime.text import TEXT_STYLE, legible, legible_embed


def test_black_suits_get_the_text_style_and_red_suits_stay_emoji() -> None:
    assert legible("7♠ take 7♣ | 5♦+2♥") == f"7♠{TEXT_STYLE} take 7♣{TEXT_STYLE} | 5♦+2♥"


def test_legible_is_idempotent() -> None:
    once = legible("A♠ · K♣")
    assert legible(once) == once


def test_every_text_of_an_embed_is_legible() -> None:
    embed = discord.Embed(title="T♠", description="D♣")
    embed.add_field(name="N♠", value="V♣")
    embed.set_footer(text="F♠")
    data = legible_embed(embed).to_dict()
    texts = [data["title"], data["description"], data["fields"][0]["name"], data["fields"][0]["value"]]
    assert all(text.endswith(TEXT_STYLE) for text in [*texts, data["footer"]["text"]])
