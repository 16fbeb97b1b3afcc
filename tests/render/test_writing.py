"""Words wrap at spaces and are never cut."""

from render import style
from render.writing import pack, wrap

FACE = style.font(22, bold=True)


def test_wrap_breaks_at_spaces_and_keeps_every_word_whole() -> None:
    lines = wrap("of Bartholomew Longname", FACE, FACE.getlength("of Bartholomew"))
    assert lines == ["of Bartholomew", "Longname"]


def test_a_word_wider_than_the_line_gets_a_line_of_its_own() -> None:
    assert wrap("of Bartholomew", FACE, 40) == ["of", "Bartholomew"]


def test_a_short_last_word_takes_the_word_before_it_along() -> None:
    width = FACE.getlength("Computer (hard)")
    assert wrap("Computer (hard) 2", FACE, width) == ["Computer", "(hard) 2"]


def test_pack_keeps_each_part_on_one_line() -> None:
    parts = ["hand 4", "captured 12", "sweeps 1"]
    assert pack(parts, FACE, FACE.getlength("hand 4 · captured 12")) == ["hand 4 · captured 12", "sweeps 1"]
