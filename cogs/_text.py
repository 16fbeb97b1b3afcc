"""Small text helpers for Discord's length limits."""


CONTENT_LIMIT = 2000  # characters in a message's content
QUOTE_LIMIT = 60  # characters of a player's own text quoted back in a reply


def clip(text: str, limit: int) -> str:
    """`text` cut to Discord's `limit`, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
