"""Checks shared by the picture tests: what the layout record must say about the cards a view holds."""

from collections import Counter

from render.cards import height_for
from render.layout import Rendered

PHONE_DP = 360  # a phone in portrait shows a chat image about this many dp across
MAX_WIDTH = 1000
MIN_CARD_DP = 28  # a whole card at least this wide on that phone: rank and suit read at a glance
MIN_STRIP_DP = 15  # the visible index strip of a fanned card at least this wide


def assert_sound_layout(picture: Rendered) -> None:
    """Every box inside the image, and no two boxes sharing a pixel."""
    for drawn in picture.cards:
        assert drawn.box.inside(picture.width, picture.height), drawn
    boxes = list(picture.cards)
    for index, first in enumerate(boxes):
        for second in boxes[index + 1 :]:
            assert not first.box.overlaps(second.box), (first, second)


def faces(picture: Rendered, place: str | None = None) -> Counter[str]:
    """Labels of the face-up cards drawn (at `place`, or anywhere), as a multiset."""
    return Counter(d.label for d in picture.cards if d.label != "back" and (place is None or d.place == place))


def backs(picture: Rendered) -> list[str]:
    """Places where a card back was drawn."""
    return [d.place for d in picture.cards if d.label == "back"]


def assert_phone_readable(picture: Rendered) -> None:
    """Width at most MAX_WIDTH; shown PHONE_DP across, whole cards and fan strips keep a readable size.

    The stock's back is left out: it has nothing to read (its count is written beside it).
    """
    assert picture.width <= MAX_WIDTH
    scale = PHONE_DP / picture.width
    for drawn in picture.cards:
        if drawn.place == "stock":
            continue
        box = drawn.box
        if box.height == height_for(box.width):
            assert box.width * scale >= MIN_CARD_DP, drawn
        else:
            assert box.width * scale >= MIN_STRIP_DP, drawn
