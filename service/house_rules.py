"""House rules (issue 26) as the service applies them: a lobby's and a server's, checked against the kind.

A kind lists its house rules (`GameKind.house_rules`) and says whether they fit a number of seats
(`GameKind.house_rules_fit`); nothing here names a kind. A lobby stores the rules it plays by in its settings, as the
engine reads them; a server's usual house rules (its preset) hold only the rules that differ from the defaults.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from engine.errors import SettingError
from engine.kinds import GameKind, HouseRule, HouseRuleValue
from engine.message import Message
from service.errors import RefusedError

log = logging.getLogger(__name__)

UNUSABLE = Message("refused.settings-unusable")


def rule_of(kind: GameKind, setting: str) -> HouseRule:
    """The kind's house rule stored under `setting`.

    Raises:
        RefusedError: the kind has no house rules, or none of that setting.
    """
    if not kind.house_rules:
        raise RefusedError(Message("refused.no-house-rules", {"game": kind.title}))
    try:
        return kind.house_rule(setting)
    except KeyError:
        raise RefusedError(Message("refused.no-such-house-rule", {"game": kind.title})) from None


def checked_value(rule: HouseRule, value: object) -> HouseRuleValue:
    """`value` if the rule allows it.

    Raises:
        RefusedError: it does not (the rule's own reason).
    """
    try:
        return rule.check(value)
    except SettingError as error:
        raise RefusedError(error.message) from error


def misfit(kind: GameKind, settings: Mapping[str, Any], seats: int) -> Message | None:
    """Why the house rules in `settings` do not suit `seats` players (the kind's reason), or None when they do.

    Settings the engine refuses as a whole (a combination it cannot play) are unusable, said so.
    """
    try:
        kind.engine.settings_from_dict(dict(settings))
        return kind.house_rules_misfit(settings, seats)
    except (ValueError, TypeError) as error:
        log.info("%s settings %r refused: %s", kind.name, dict(settings), error)
        return UNUSABLE


def preset_of(kind: GameKind, stored: Mapping[str, Any]) -> dict[str, HouseRuleValue]:
    """A stored preset as the kind allows it now: each house rule it names with a value the rule still allows.

    A rule the kind no longer has, or a value it no longer allows, is left out (and logged): a preset saved by an
    older version of the bot never stops a lobby from opening.
    """
    preset: dict[str, HouseRuleValue] = {}
    for setting, value in stored.items():
        try:
            rule = kind.house_rule(setting)
            preset[setting] = rule.check(value)
        except (KeyError, SettingError):
            log.warning("the %s preset's %s=%r is no house rule value any more; left out", kind.name, setting, value)
            continue
        if preset[setting] == rule.default:
            del preset[setting]
    return preset


def starting_settings(
    kind: GameKind, preset: Mapping[str, HouseRuleValue], chosen: Mapping[str, Any], seats: int
) -> dict[str, Any]:
    """A new lobby's settings: the server's usual house rules under what the host chose in `/<kind> new`.

    Where the preset's rules do not fit the lobby's `seats` (partnerships in a two-seat lobby), its rules are left
    out one by one, the kind's last first, until they fit; what the host chose stays.
    """
    settings = {**preset, **chosen}
    for rule in reversed(kind.house_rules):
        if misfit(kind, settings, seats) is None:
            break
        if rule.setting in preset and rule.setting not in chosen:
            del settings[rule.setting]
    return settings


def differing(kind: GameKind, settings: Mapping[str, Any]) -> dict[str, HouseRuleValue]:
    """The house rules in `settings` that differ from their defaults, by setting (what a preset keeps)."""
    return {rule.setting: value for rule, value in kind.rules_in_force(settings)}
