"""Issue 25: the Norwegian, Indonesian and Hungarian catalogs say real engine events in their own words.

Each check renders events the engines report (a take with groups, a sweep, a round's end, Garbage's Jack placed and
hands won) through `render_message`, and compares with the English rendering and the catalogs themselves: no
sentence here is written out by hand, and the plural forms are checked against Babel's CLDR rules.
"""

import re
from collections.abc import Callable

import pytest
from babel import Locale
from babel.messages.plurals import get_plural

from engine.cards import Card
from engine.garbage.events import HandWon, JackPlaced
from engine.kasino.events import CardsTaken, RoundEnded, Swept
from engine.kasino.scoring import SeatScore
from engine.kasino.table import BUILD, PILE, TableItem
from engine.message import Message
from i18n import card_words, counted, rank_words, render_message, render_param
from i18n.cards import RANK_IDS
from i18n.catalog import LOCALES, SOURCE_LOCALE, load

TRANSLATED = tuple(locale for locale in LOCALES if locale != SOURCE_LOCALE)
NAMES = ["Kari", "Ola"]
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def card_text(locale: str) -> re.Pattern[str]:
    """A card as `locale` writes it ("Kn♣" in Norwegian), longest rank first."""
    letters = sorted((rank_words(rank, locale) for rank in RANK_IDS), key=len, reverse=True)
    return re.compile(rf"(?:10|[2-9]|{'|'.join(letters)})[♠♥♦♣]")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(item) for item in text.split())


def loose(text: str) -> TableItem:
    return TableItem.loose(Card.parse(text))


def score(seat: int, round_total: int, game_total: int) -> SeatScore:
    return SeatScore(seat, 20, 7, 1, 2, 1, 0, 0, 0, 1, round_total, game_total)


SCORES = (score(0, 6, 9), score(1, 5, 12))


def take_with_groups() -> Message:
    """10♦ (16 from the hand) takes two groups: "Kari takes K♥+3♥ and 10♥+6♦ with 10♦ (16)."."""
    groups = ((loose("K♥"), loose("3♥")), (loose("10♥"), loose("6♦")))
    return CardsTaken(0, Card.parse("10♦"), cards("K♥ 3♥ 10♥ 6♦"), groups).message()


def take_of_a_build_and_a_pile() -> Message:
    """9♥ takes a build, a pile and two loose cards: "Ola takes the 9 build and the 9 pile and 5♣+4♦ with 9♥."."""
    build = TableItem(BUILD, cards("6♠ 3♦"), 9, owner=1, contributors=(1,))
    pile = TableItem(PILE, cards("9♣ 9♠"), 9)
    groups = ((build,), (pile,), (loose("5♣"), loose("4♦")))
    return CardsTaken(1, Card.parse("9♥"), cards("6♠ 3♦ 9♣ 9♠ 5♣ 4♦"), groups).message()


def round_ended(leftover: int) -> Message:
    return RoundEnded(1, 0, cards("2♣ 7♦ Q♥")[:leftover], ((), ()), SCORES).message()


def round_ended_untaken(left: int) -> Message:
    return RoundEnded(1, None, cards("2♣ 7♦ Q♥")[:left], ((), ()), SCORES).message()


def hand_won(sizes: tuple[int, int] = (1, 3), game_won: bool = False) -> Message:
    return HandWon(0, 2, Card.parse("5♥"), sizes, game_won).message()


EVENTS: dict[str, Callable[[], Message]] = {
    "take with groups": take_with_groups,
    "take of a build and a pile": take_of_a_build_and_a_pile,
    "sweep": lambda: Swept(0, 2).message(),
    "round end, 1 card left": lambda: round_ended(1),
    "round end, 3 cards left": lambda: round_ended(3),
    "round end untaken, 1 card": lambda: round_ended_untaken(1),
    "round end untaken, 3 cards": lambda: round_ended_untaken(3),
    "Garbage Jack placed": lambda: JackPlaced(1, 4, Card.parse("J♣"), Card.parse("4♥")).message(),
    "Garbage hand won": hand_won,
    "Garbage game won": lambda: hand_won((1, 3), game_won=True),
}


def words(text: str, locale: str = SOURCE_LOCALE) -> set[str]:
    """The words of a rendered sentence, lower case, without the players' names and the cards."""
    for name in NAMES:
        text = text.replace(name, " ")
    return set(re.findall(r"[^\W\d_]+", card_text(locale).sub(" ", text).lower()))


def plural_index(locale: str, n: int) -> int:
    """The form gettext should pick for `n`, from Babel's CLDR data: one form, or 'one' first and 'other' next."""
    nplurals, _ = get_plural(locale)
    if nplurals == 1:
        return 0
    return 0 if Locale.parse(locale).plural_form(n) == "one" else 1


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_an_event_is_said_in_the_language_with_no_english_word_left(locale: str, event: str) -> None:
    message = EVENTS[event]()
    english = render_message(message, SOURCE_LOCALE, NAMES)
    said = render_message(message, locale, NAMES)
    assert said and "{" not in said and "}" not in said, said
    assert words(said, locale), said
    assert words(said, locale) & words(english) == set(), (english, said)
    # Names and cards are still there: only the words around them change.
    # Cards are written with the language's rank letters (a Norwegian Jack is "Kn♣").
    local = {card_words(Card.parse(card), locale) for card in CARD_TEXT.findall(english)}
    assert set(card_text(locale).findall(said)) == local
    assert {name for name in NAMES if name in said} == {name for name in NAMES if name in english}


@pytest.mark.parametrize("locale", LOCALES)
def test_each_catalogs_plural_rule_is_babels_cldr_rule(locale: str) -> None:
    catalog = load(locale)
    assert [catalog.plural(n) for n in range(0, 120)] == [plural_index(locale, n) for n in range(0, 120)]


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("n", [1, 3])
def test_a_round_end_counts_its_cards_in_the_form_cldr_gives_the_number(locale: str, n: int) -> None:
    catalog = load(locale)
    card = catalog.entries["count.card"]
    expected = card.forms[plural_index(locale, n)].format(n=n)
    assert counted(n, "card", locale) == expected
    assert expected in render_message(round_ended(n), locale, NAMES)

    # The untaken round chooses its whole sentence by the number of cards set aside.
    message = round_ended_untaken(n)
    entry = catalog.entries[message.id]
    said = {name: render_param(value, locale, NAMES) for name, value in message.params.items()}
    assert render_message(message, locale, NAMES) == entry.forms[plural_index(locale, n)].format_map(said)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_garbage_layouts_of_one_and_three_spots_take_their_own_forms(locale: str) -> None:
    said = render_message(hand_won((1, 3)), locale, NAMES)
    one, three = counted(1, "spot", locale), counted(3, "spot", locale)
    assert f"Kari {one}" in said and f"Ola {three}" in said
    spot = load(locale).entries["count.spot"]
    assert one == spot.forms[plural_index(locale, 1)].format(n=1)
    assert three == spot.forms[plural_index(locale, 3)].format(n=3)


def test_norwegian_says_one_and_several_differently_where_the_noun_changes() -> None:
    # "1 plass", "3 plasser": the other form is used after 3, not the one form.
    spot = load("no").entries["count.spot"]
    assert spot.forms[0] != spot.forms[1]
    assert counted(3, "spot", "no") == spot.forms[1].format(n=3) != spot.forms[0].format(n=3)


def test_hungarian_keeps_the_noun_singular_after_a_number() -> None:
    # Hungarian says "3 lap", never "3 lapok": both forms of every counted noun are the same words.
    catalog = load("hu")
    counts = {key: entry for key, entry in catalog.entries.items() if key.startswith(("count.", "noun."))}
    assert counts and all(len(entry.forms) == 2 for entry in counts.values())
    assert {key: entry.forms for key, entry in counts.items() if entry.forms[0] != entry.forms[1]} == {}


def test_indonesian_has_one_form_for_every_number() -> None:
    catalog = load("id")
    plural = [entry for entry in catalog.entries.values() if entry.selector is not None]
    assert plural and all(len(entry.forms) == 1 for entry in plural)
    assert counted(1, "card", "id") == catalog.entries["count.card"].forms[0].format(n=1)
    assert counted(3, "card", "id") == catalog.entries["count.card"].forms[0].format(n=3)
