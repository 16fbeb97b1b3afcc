"""The rules as players read them in `/rules`; they say what the engine does (see RULES.md and its Decisions)."""

from cogs._text import RESIGNED_TURNS

KASINO_RULES = f"""\
**Kasino** — 2 to 4 players, one deck. Capture cards from the table; points are scored at the end of each round.

**Deal.** Each player gets 4 cards and 4 go face up on the table. When everyone has played their 4, four more \
each (none to the table) until the deck is used up. The dealer moves one seat each round; the player after the \
dealer leads.

**Card values.** On the table / played from your hand:
```
Ace           1 / 14
2♠ (little)   2 / 15
10♦ (big)    10 / 16
other 2–10   face value
J / Q / K    11 / 12 / 13
```
So only 2♠ takes a 15, only 10♦ takes a 16, and a table Ace is taken only as part of a sum.

**Your turn** plays exactly one card, as one of:
• **Take** — play a card and take table cards and piles that make up its hand value, in one or more groups \
(8♠ takes 8♣, or 5♦+3♥, or all three). A build is taken only whole, by a card of its value. Taking is never forced.
• **Build** — play a card onto a loose card or pile to make a build of their sum. You may own one build, and \
you must keep a card in hand that takes it.
• **Raise** — add a card to another player's build (not doubled, not one you added to before); it becomes yours, \
with the same two conditions.
• **Double** — play a card of the same value onto a card or pile (it becomes a pile), or onto a build (it can \
then no longer be raised; you must keep a card that takes it, and you then own it).
• **Place** — put a card on the table. Always allowed; the only move on an empty table.

**Sweep** — a take that empties the table scores 1, except the last play of a round. The last player to take \
in a round also gets the cards left on the table.

**Points per round:**
```
most cards      1   (tie: nobody)
most spades     2   (tie: nobody)
each Ace        1
2♠              1
10♦             2
each sweep      1
last take       1
```
The game ends after the round in which someone reaches the target (16 unless the host chose another); \
highest total wins, and a tie for first plays another round.

**Leaving early.** `/game resign` gives up your seat. {RESIGNED_TURNS} In Kasino that move places their lowest card.

Commands: your hand's buttons in your DM or under **Show my hand** (a card, then its move), `/kasino hand`, or \
`/kasino play move:` (with suggestions).\
"""
