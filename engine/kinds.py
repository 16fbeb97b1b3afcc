"""What the rest of the bot needs to know about a kind of game, written once per kind (see `engine.registry`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import AnyGame
from engine.errors import SettingError
from engine.message import Joined, Message, Param


@dataclass(frozen=True, slots=True)
class WholeNumber:
    """A whole-number setting the host picks when opening a lobby (`/<kind> new`), from `low` to `high`."""

    name: str  # the option's name in the `/<kind> new` command
    setting: str  # the key it fills in the game's settings
    description: str
    low: int
    high: int
    default: int
    usual: tuple[int, ...] = ()  # the values most tables play, offered first as the host types (KV1: 11, 16, 21)

    def check(self, value: object) -> int:
        """The value, if it is one this option allows; else SettingError (a ValueError) saying which are."""
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            params: dict[str, Param] = {"option": self.name, "low": self.low, "high": self.high}
            raise SettingError(Message("refused.setting-whole-number", params))
        return value


@dataclass(frozen=True, slots=True)
class YesNo:
    """An on/off setting the host picks when opening a lobby."""

    name: str
    setting: str
    description: str
    default: bool

    def check(self, value: object) -> bool:
        """The value, if it is yes or no; else SettingError (a ValueError)."""
        if not isinstance(value, bool):
            raise SettingError(Message("refused.setting-yes-no", {"option": self.name}))
        return value


@dataclass(frozen=True, slots=True)
class OneOf:
    """A setting the host picks from a few named choices when opening a lobby."""

    name: str
    setting: str
    description: str
    choices: tuple[tuple[str, str], ...]  # (stored value, what players read), in the order offered
    default: str

    def check(self, value: object) -> str:
        """The value, if it is one of the choices; else SettingError (a ValueError) naming them."""
        if value not in dict(self.choices):
            offered = Joined(tuple(words for _, words in self.choices), "join.comma")
            raise SettingError(Message("refused.setting-one-of", {"option": self.name, "choices": offered}))
        return str(value)


LobbyOption = WholeNumber | YesNo | OneOf  # a kind's own lobby settings, besides seats and the turn timer
HouseRuleValue = bool | int | str


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule of a kind (RULES.md, "House rules (variants)"): a setting of the game with a few values.

    The lobby's "House rules…" offers each with a control that fits it (on/off for two booleans, else a choice), and
    stores the value in the game's settings under `setting`; `default` is the rule as the main rules say it, so a game
    with no house rules plays as specified. Words come from the kind's catalog: `<kind>.rule.<setting>` names the rule,
    `<kind>.rule.<setting>.<value_key(value)>` each value.
    """

    rule_id: str  # "KV2", as RULES.md names it
    setting: str  # the key in the engine's settings
    values: tuple[bool | int | str, ...]  # every value allowed, in the order offered
    default: bool | int | str

    def check(self, value: object) -> bool | int | str:
        """The value, if the rule allows it; else SettingError naming the rule."""
        if not isinstance(value, bool | int | str) or type(value) is not type(self.default) or value not in self.values:
            raise SettingError(Message("refused.house-rule-value", {"rule": self.rule_id}))
        return value

    @property
    def is_on_off(self) -> bool:
        """Whether the rule is on or off (two booleans), offered as a toggle; else it is a choice."""
        return isinstance(self.default, bool)

    def value_in(self, settings: Mapping[str, Any]) -> bool | int | str:
        """The rule's value in a game's settings (as stored, or `to_dict` of the engine's): the default when unset."""
        value = settings.get(self.setting, self.default)
        return value if isinstance(value, bool | int | str) else self.default


def value_key(value: bool | int | str) -> str:
    """A house rule's value as its catalog id ends: `on`/`off` for a boolean, else the value itself."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@dataclass(frozen=True, slots=True)
class GameKind:
    """One kind of game: its engine and the facts the lobby, storage, ids and boards read.

    `name` is the stored kind and the slash command group; the kind's Discord extension is `cogs.<name>.cog` unless
    `cog` names another (a kind defined by a test brings its own).
    """

    name: str
    code: str  # one lowercase letter, unique among kinds: custom ids carry it
    engine: type[AnyGame]
    # What the placings were decided by, counted in result lines: a message id with an `{n}` plural, the shared
    # catalog's ("count.point", "count.hand won") or the kind's own ("gnav.count.trick").
    score_unit: str
    private_hands: bool  # whether each player holds cards only they may see (DM panels, Show my hand)
    tagline: str  # the slash command group's description
    options: tuple[LobbyOption, ...]
    settings_line: Callable[[Any], Message]  # the lobby's options in one sentence, from the engine's settings object
    # How a move is typed, for players (shown by `/rules` under the rules): a message whose lines each open with a
    # typed example in backticks, in the parser's English words, and say what it does; `None` when there is none.
    notation: Message | None = None
    # Its house rules (`HouseRule`), in the order the lobby offers them; none when the kind has no variants.
    house_rules: tuple[HouseRule, ...] = ()
    # Why house rules do not fit a number of seats (partnerships need four), from the engine's settings object and
    # the seats: a message, or None when they fit. The lobby asks it on each change and again at Start.
    house_rules_fit: Callable[[Any, int], Message | None] | None = None
    # The picture of the table, optional: the engine's public view class, and "module:function" drawing it from that
    # view, the players' names and the locale its words are in (resolved by `render`, so the engine imports no
    # drawing code).
    public_view: type[Any] | None = None
    table_picture: str | None = None
    # Its computer players, optional: (strength, "module:Class") weakest first, resolved by `ai.players` (so the
    # engine imports no player); the lobby offers computers only for the strengths listed here.
    players: tuple[tuple[str, str], ...] = ()
    # How the lobby's menu describes its computer players, where the shared words (`computers.menu.<strength>`) do
    # not fit the kind: (strength, message id).
    player_words: tuple[tuple[str, str], ...] = ()
    cog: str | None = None  # the kind's Discord extension, where it is not `cogs.<name>.cog`

    @property
    def cog_module(self) -> str:
        """The module the bot loads as this kind's extension (its commands, its table, its panels)."""
        # Not the package itself: discord.py forgets an extension's submodules when it unloads it, and the package's
        # other modules (drawing caches among them) outlive a restart of the bot within one process.
        return self.cog or f"cogs.{self.name}.cog"

    @property
    def title(self) -> str:
        """The game's name as players read it (the engine's)."""
        return self.engine.TITLE

    @property
    def min_seats(self) -> int:
        """The fewest players a game may start with (the engine's)."""
        return self.engine.MIN_PLAYERS

    @property
    def max_seats(self) -> int:
        """The most players a game may have (the engine's)."""
        return self.engine.MAX_PLAYERS

    def describe_settings(self, settings: Mapping[str, Any] | None) -> Message:
        """The lobby's chosen options in one sentence ("Playing to 16 points.")."""
        return self.settings_line(self.engine.settings_from_dict(dict(settings or {})))

    def house_rule(self, setting: str) -> HouseRule:
        """The house rule stored under `setting`.

        Raises:
            KeyError: the kind has no house rule of that setting.
        """
        for rule in self.house_rules:
            if rule.setting == setting:
                return rule
        raise KeyError(setting)

    def rules_in_force(self, settings: Mapping[str, Any] | None) -> tuple[tuple[HouseRule, HouseRuleValue], ...]:
        """The house rules whose value in `settings` differs from its default, with that value, in the kind's order.

        `settings` as stored with a lobby or game: a key it lacks is the engine's default. None when none differs: the
        game is played by the main rules.
        """
        if not self.house_rules:
            return ()
        given = dict(settings or {})
        # Settings the engine refuses are told as stored; whoever plays with them is refused elsewhere.
        with contextlib.suppress(ValueError, TypeError):
            given = self.engine.settings_from_dict(given).to_dict() | given
        return tuple(
            (rule, value) for rule in self.house_rules if (value := rule.value_in(given)) != rule.default
        )

    def house_rules_misfit(self, settings: Mapping[str, Any] | None, seats: int) -> Message | None:
        """Why the house rules in `settings` do not fit `seats` players (the kind's `house_rules_fit`), or None.

        Raises:
            ValueError: settings the engine refuses.
        """
        if self.house_rules_fit is None:
            return None
        return self.house_rules_fit(self.engine.settings_from_dict(dict(settings or {})), seats)

    def check_seats(self, seats: int) -> None:
        """Raises SettingError (a ValueError) when `seats` is outside this kind's range."""
        if not self.min_seats <= seats <= self.max_seats:
            params: dict[str, Param] = {"game": self.title, "low": self.min_seats, "high": self.max_seats}
            params["seats"] = seats
            raise SettingError(Message("refused.seats-out-of-range", params))
