"""The rules as players read them in `/rules`; they say what the engine does (see RULES.md and its Decisions)."""

from cogs._text import RESIGNED_TURNS

GARBAGE_RULES = f"""\
**Garbage** (Trash) — 2 to 6 players; one deck for 2, two for 3–4, three for 5–6.

**Layout.** You have a row of face-down spots, Ace to 10 (10 spots at the start; fewer if the host chose a \
shorter game). Spot *k* wants a card of rank *k*. Nobody, not even you, sees a face-down card.

**Your turn.** Draw from the stock, or take the top card of the discard pile. Then, over and over:
• a card of rank *k* that fits a face-down spot *k* goes there face up, and you pick up the card that was there;
• it also replaces a Jack sitting on spot *k* (the Jack comes back to you);
• a **Jack** is wild: you choose a face-down spot for it, and pick up the card there;
• anything else — a Queen or King, a rank with no spot, a spot already filled — goes to the discard pile and \
your turn ends.

**Winning a hand.** When all your spots are face up you win the hand, and your next layout has one spot fewer. \
The winner starts the next hand. When the stock runs out, the discard pile (except its top card) is shuffled \
into a new stock.

**Winning the game.** Win a hand with a single spot left (an Ace, or a Jack, on the Ace spot).

**Leaving early.** `/game resign` gives up your seat. {RESIGNED_TURNS} In Garbage that move draws from the stock and \
puts a Jack on the lowest face-down spot; a Jack you were still placing goes to the discard pile.

Buttons on the table: **Draw from stock**, **Take discard**, and one button per spot when a Jack needs one. \
Or type `/garbage draw source:` and `/garbage jack spot:`.\
"""
