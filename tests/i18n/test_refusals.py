"""Issue 25: refusals are messages, said in the language of the player who acted.

Each refusal here is raised for real (by an engine, the table service or the store), then said the way the bot says
it (`cogs.runtime.errors.sentence`, in the actor's locale). In English it reads as it did when the engine held
sentences; in Norwegian, Indonesian and Hungarian it is the catalog's own words, not the English.
"""

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from cogs.runtime.errors import sentence
from db.errors import LobbyFullError, StaleVersionError, StoreError
from db.store import Store
from engine.cards import Card
from engine.errors import (
    AmbiguousMoveError,
    GameError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    SettingError,
)
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame
from engine.message import Message
from engine.registry import game_kind
from i18n.catalog import LOCALES, SOURCE_LOCALE, load
from service.errors import RefusedError, refusal_message
from service.tables import USER_ERRORS, LobbyOptions, TableService
from tests.db.helpers import CHANNEL, GUILD, NOW, new_lobby

TRANSLATED = tuple(locale for locale in LOCALES if locale != SOURCE_LOCALE)
REFUSAL_PREFIXES = ("refused.", "kasino.refused.", "garbage.refused.")


def raised(action: Callable[[], object]) -> BaseException:
    """The refusal `action()` raises."""
    with pytest.raises(USER_ERRORS) as refused:
        action()
    return refused.value


def kasino_position() -> KasinoGame:
    return KasinoGame.from_position(["5♥ 2♠ 9♦", "K♣"], ["10♣", {"build": "4♠ 5♠", "owner": 0}], to_move=0)


def garbage_first_turn(text: str) -> None:
    """`text` played by the seat to move at the start of a new game (the discard pile is still empty)."""
    game = GarbageGame.new(2, seed=5)
    assert game.to_move is not None
    game.play(game.to_move, text)


def garbage_over() -> GarbageGame:
    game = GarbageGame.from_position(["5♦", "2♣ 3♣"], stock="A♠")
    game.play(0, "draw stock")  # fills the single spot: the game is won
    return game


def garbage_waiting_for_a_jack() -> GarbageGame:
    game = GarbageGame.from_position(
        ["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥", "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"], face_up=[[1, 4, 5, 6, 8], []], stock="J♣"
    )
    game.play(0, "draw stock")
    return game


# Each engine refusal: how it is raised, its class, its message id, and its English words as the engine said them.
ENGINE_REFUSALS = {
    "unknown card": (
        lambda: Card.parse("banana"),
        InvalidMoveError,
        "refused.not-a-card",
        "“banana” is not a card; write it like 10♦, 10d, Td, A♠ or qh.",
    ),
    "kasino illegal take": (
        lambda: kasino_position().play(0, "5h take 4s"),
        IllegalMoveError,
        "kasino.refused.build-needs-value",
        "The 9 build (4♠ 5♠) can only be taken by a card worth 9, and 5♥ is worth 5 from the hand.",
    ),
    "kasino out of turn": (
        lambda: kasino_position().play(1, "kc place"),
        NotYourTurnError,
        "refused.not-your-turn",
        "It is not your turn.",
    ),
    "kasino not an action": (
        lambda: kasino_position().play(0, "5h jump 10c"),
        InvalidMoveError,
        "kasino.refused.not-an-action",
        "“jump” is not a Kasino action; write a move like “5♥ take 3♦+A♥”, “5♥ build 10♣”, “3♣ raise 6”, "
        "“7♦ double 7♣”, “Q♠ place” or “resign”.",
    ),
    "kasino one item only": (
        lambda: kasino_position().play(0, "5h build 10c 9d"),
        InvalidMoveError,
        "kasino.refused.one-item-only",
        "Build names exactly one table item: e.g. “5♥ build 7♣”.",
    ),
    "kasino ambiguous value": (
        lambda: KasinoGame.from_position(
            ["3♣ 9♠ 6♠", "K♣"], [{"build": "4♦ 2♥", "owner": 1}, "6♣"], to_move=0
        ).parse_move(0, "6s take 6"),
        AmbiguousMoveError,
        "kasino.refused.ambiguous-value",
        "2 items are worth 6 (the 6 build (4♦ 2♥), 6♣); name one by a card, e.g. “6♠ take 4♦”.",
    ),
    "kasino double of unequal values": (
        lambda: KasinoGame.from_position(["8♦ 9♠", "K♣"], ["7♣ 7♦"], to_move=0).play(0, "8d double 7c"),
        IllegalMoveError,
        "kasino.refused.double-unequal",
        "8♦ is worth 8 on the table and the 7 pile (7♣ 7♦) is worth 7; a double needs equal values.",
    ),
    "garbage empty discard pile": (
        lambda: garbage_first_turn("draw discard"),
        IllegalMoveError,
        "garbage.refused.discard-empty",
        "The discard pile is empty; draw from the stock.",
    ),
    "garbage spot beyond the layout": (
        lambda: garbage_waiting_for_a_jack().play(0, "jack 9"),
        IllegalMoveError,
        "garbage.refused.spot-beyond-layout",
        "There is no spot 9: your layout has 8 spots.",
    ),
    "garbage not a move": (
        lambda: garbage_first_turn("draw"),
        InvalidMoveError,
        "garbage.refused.not-a-move",
        "“draw” is not a Garbage move; write draw stock, draw discard, jack 7 (a spot number) or resign.",
    ),
    "garbage after the game": (
        lambda: garbage_over().play(1, "draw stock"),
        GameOverError,
        "refused.game-over",
        "The game is over.",
    ),
    "lobby seats out of range": (
        lambda: game_kind("kasino").check_seats(7),
        SettingError,
        "refused.seats-out-of-range",
        "Kasino is for 2 to 4 players, not 7.",
    ),
}


@pytest.mark.parametrize("case", ENGINE_REFUSALS, ids=str)
def test_b3_an_engine_refusal_is_a_message_said_in_every_locale(case: str) -> None:
    action, error_class, message_id, english = ENGINE_REFUSALS[case]
    error = raised(action)
    assert type(error) is error_class and isinstance(error, GameError)
    assert error.message.id == message_id
    assert "{" not in str(error) and message_id in str(error)  # for logs: the id and parameters
    said_in = {locale: sentence(error, locale) for locale in LOCALES}
    assert said_in[SOURCE_LOCALE] == english
    for locale in TRANSLATED:
        assert said_in[locale] != english, (locale, said_in[locale])
        assert "{" not in said_in[locale] and "}" not in said_in[locale], said_in[locale]


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "bot.db")
    try:
        yield TableService(store, clock=lambda: NOW, new_seed=lambda: 7)
    finally:
        await store.close()


async def refusal_of(awaitable: Awaitable[object]) -> BaseException:
    with pytest.raises(USER_ERRORS) as refused:
        await awaitable
    return refused.value


async def test_the_service_and_store_refusals_are_messages_said_in_every_locale(tables: TableService) -> None:
    lobby = await tables.open_lobby(
        "kasino", LobbyOptions(2), guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="Kari"
    )
    await tables.join(lobby.id, 2, "Ola")
    found = {
        "host only": (await refusal_of(tables.start(lobby.id, 2)), "Only the host can start the game."),
        "full lobby": (await refusal_of(tables.join(lobby.id, 3, "Nora")), "The game is full (2/2)."),
        "a manager's setting": (
            await refusal_of(tables.set_language(GUILD, "no", is_manager=False)),
            "Only someone with Manage Server can choose the language of this server's tables.",
        ),
    }
    started = await tables.start(lobby.id, 1)
    assert started.game.to_move is not None
    waiting = 1 - started.game.to_move  # the seat that is not to move tries to
    to_move = started.record.seats[started.game.to_move].name
    user = started.record.seats[waiting].user_id
    assert user is not None
    move = str(started.game.legal_moves(started.game.to_move)[0])
    found["someone else's turn"] = (
        await refusal_of(tables.play(lobby.id, user, move)),
        f"It is {to_move}'s turn, not yours.",
    )
    found["a stale click"] = (
        await refusal_of(tables.play(lobby.id, user, move, version=lobby.version)),
        "That move is out of date; the table has changed.",
    )
    assert isinstance(found["host only"][0], RefusedError)
    assert isinstance(found["full lobby"][0], LobbyFullError)  # the store's facts, said by the service's message
    assert refusal_message(found["full lobby"][0]) == Message("refused.lobby-full", {"taken": 2, "seats": 2})
    assert refusal_message(found["someone else's turn"][0]) == Message("refused.others-turn", {"player": to_move})
    for case, (error, english) in found.items():
        said_in = {locale: sentence(error, locale) for locale in LOCALES}
        assert said_in[SOURCE_LOCALE] == english, case
        for locale in TRANSLATED:
            assert said_in[locale] != english, (case, locale)
        if "turn" in case:
            assert all(to_move in text for text in said_in.values()), said_in  # the name, as a plain parameter


async def test_a_store_refusal_is_said_from_its_facts_and_any_other_as_a_storage_failure(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        lobby = await new_lobby(store, max_seats=2)
        await store.join_lobby(lobby.id, 2, "u2", NOW)
        full = await refusal_of(store.join_lobby(lobby.id, 3, "u3", NOW))
        stale = await refusal_of(store.start_game(lobby.id, lobby.version, [1, 2], {}, NOW))
    finally:
        await store.close()
    assert isinstance(full, LobbyFullError) and (full.taken, full.seats) == (2, 2)
    assert isinstance(stale, StaleVersionError)
    assert sentence(full) == "The game is full (2/2)."
    assert sentence(full, "hu") == "A játék megtelt (2/2)."
    assert sentence(stale, "no") == "Det trekket er utdatert; bordet har endret seg."
    unknown = StoreError("the disk is on fire")  # a store error no message is made for: an honest generic one
    assert refusal_message(unknown) == Message("refused.store-failed")
    assert "storage" in sentence(unknown) and "fire" not in sentence(unknown)
    assert "lagringen" in sentence(unknown, "no")


def test_a_presenter_may_refuse_with_its_own_words_shown_as_they_are() -> None:
    error = RefusedError("Ei kort i hånda.")  # a cog that has already said its reason in the reader's language
    assert all(sentence(error, locale) == "Ei kort i hånda." for locale in LOCALES)


def test_every_refusal_is_translated_and_hungarian_puts_no_ending_on_a_placeholder() -> None:
    english = load(SOURCE_LOCALE).entries
    refusals = sorted(key for key in english if key.startswith(REFUSAL_PREFIXES))
    assert len(refusals) > 80
    for locale in TRANSLATED:
        entries = load(locale).entries
        untranslated = [key for key in refusals if entries[key].forms == english[key].forms]
        assert untranslated == [], locale
    hungarian = load("hu").entries
    # "{player}-nak" or "{value}ig" would inflect a name or number the catalog cannot see; a space, a bracket or
    # punctuation after a placeholder is fine.
    endings = {key: form for key in refusals for form in hungarian[key].forms if re.search(r"\}[-\w]", form)}
    assert endings == {}
