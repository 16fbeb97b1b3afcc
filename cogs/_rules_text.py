"""The rules as players read them in `/rules`; they say what the engines do (see RULES.md and its Decisions)."""

KASINO_RULES = """\
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

**Leaving early.** `/game resign` gives up your seat: you place last, and the bot plays your remaining turns \
(it places your lowest card). A two-player game ends at once.

Commands: `/kasino play move:` (with suggestions), `/kasino hand`, or the menus in your DM.\
"""

GARBAGE_RULES = """\
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

**Leaving early.** `/game resign` gives up your seat: you place last, and the bot plays your remaining turns \
(it draws from the stock and puts Jacks on your lowest face-down spot). A Jack you were still placing goes to the \
discard pile. A two-player game ends at once.

Buttons on the table: **Draw from stock**, **Take discard**, and one button per spot when a Jack needs one. \
Or type `/garbage draw source:` and `/garbage jack spot:`.\
"""

RULES = {"kasino": KASINO_RULES, "garbage": GARBAGE_RULES}
