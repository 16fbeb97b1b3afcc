"""House rules in words (issue 26): the one short line the lobby and the table show, and `/rules`' sentences.

Every kind says its own rules in its own catalog (`engine.kinds.HouseRule`): `<kind>.rule.<setting>` names a rule,
`<kind>.rule.<setting>.<value>` says a value in a few words, and `<kind>.rule.<setting>.<value>.rules` in a sentence.
Only the rules that differ from the defaults are told: a game with none plays by the main rules and says nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.kinds import GameKind, HouseRule, HouseRuleValue, value_key
from engine.message import Joined
from engine.registry import game_kind
from i18n import say


def rule_name(kind: GameKind, rule: HouseRule, locale: str) -> str:
    """The rule's short name ("Sweeps")."""
    return say(locale, f"{kind.name}.rule.{rule.setting}")


def value_words(kind: GameKind, rule: HouseRule, value: HouseRuleValue, locale: str) -> str:
    """One value of the rule in a few words ("cancel")."""
    return say(locale, f"{kind.name}.rule.{rule.setting}.{value_key(value)}")


def value_sentence(kind: GameKind, rule: HouseRule, value: HouseRuleValue, locale: str) -> str:
    """One value of the rule as `/rules` explains it, a sentence."""
    return say(locale, f"{kind.name}.rule.{rule.setting}.{value_key(value)}.rules")


def rule_and_value(kind: GameKind, rule: HouseRule, value: HouseRuleValue, locale: str) -> str:
    """"Sweeps: cancel", as a control and the line show a rule with its value."""
    return say(
        locale,
        "house-rules.rule-value",
        rule=rule_name(kind, rule, locale),
        value=value_words(kind, rule, value, locale),
    )


def rules_in_force(
    kind_name: str, settings: Mapping[str, Any] | None, locale: str, besides: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """Each house rule in `settings` off its default ("Sweeps: cancel"), in the kind's order, but those in `besides`."""
    kind = game_kind(kind_name)
    in_force = kind.rules_in_force(settings)
    return tuple(rule_and_value(kind, rule, value, locale) for rule, value in in_force if rule.setting not in besides)


def house_rules_line(
    kind_name: str, settings: Mapping[str, Any] | None, locale: str, besides: frozenset[str] = frozenset()
) -> str | None:
    """"House rules: Sweeps: cancel; Building: off." in `locale`, or None when the game plays by the main rules.

    `besides`: settings already said in the same text (the lobby's own options, in its settings sentence).
    """
    said = rules_in_force(kind_name, settings, locale, besides)
    if not said:
        return None
    return say(locale, "house-rules.line", rules=Joined(said, "join.semicolon"))


def house_rules_sentences(kind_name: str, settings: Mapping[str, Any] | None, locale: str) -> tuple[str, ...]:
    """Each differing house rule as `/rules` explains it, one sentence each, in the kind's order."""
    kind = game_kind(kind_name)
    return tuple(value_sentence(kind, rule, value, locale) for rule, value in kind.rules_in_force(settings))
