"""Counted nouns in English, formed in one place ("1 card", "2 cards"); the languages issue moves this into catalogs.

Every sentence the bot shows with a count, in the engine's narration, on the tables, in pictures and on boards, forms
it here, so no message reads "1 cards" or "1 hands won".
"""

from __future__ import annotations

# Nouns whose plural is not the singular plus "s".
_IRREGULAR = {"match": "matches", "pass": "passes", "box": "boxes"}


def plural(noun: str, count: int) -> str:
    """`noun` in the form that goes with `count`: "card" for 1, "cards" otherwise (0 included, as in English).

    A phrase is counted by its first word: plural("hand won", 2) is "hands won".
    """
    if count == 1:
        return noun
    head, space, rest = noun.partition(" ")
    return _IRREGULAR.get(head, head + "s") + space + rest


def counted(count: int, noun: str) -> str:
    """`count` and its noun: "1 card", "3 cards", "0 points", "1 hand won"."""
    return f"{count} {plural(noun, count)}"
