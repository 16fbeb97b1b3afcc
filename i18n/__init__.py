"""The players' languages: message catalogs (gettext `.po` files, read with Babel) and the renderer.

The engine and the service say message ids with parameters (`engine.message.Message`); presenters (cogs, render)
put them into words here for one locale. English is the source; `no`, `id` and `hu` follow it id for id.
`python -m i18n` reports how complete the catalogs are.
"""

from i18n.cards import card_words, english_ranks, local_ranks, rank_words
from i18n.catalog import LOCALES, SOURCE_LOCALE
from i18n.render import (
    MissingMessageError,
    counted,
    join_names,
    noun,
    render_message,
    render_param,
    say,
    sentence_start,
)

__all__ = [
    "LOCALES",
    "SOURCE_LOCALE",
    "MissingMessageError",
    "card_words",
    "counted",
    "english_ranks",
    "join_names",
    "local_ranks",
    "noun",
    "rank_words",
    "render_message",
    "render_param",
    "say",
    "sentence_start",
]
