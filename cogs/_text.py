"""Small text helpers for Discord's length limits."""


def clip(text: str, limit: int) -> str:
    """`text` cut to Discord's `limit`, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
