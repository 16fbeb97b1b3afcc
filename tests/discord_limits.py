"""Discord's documented limits on what a bot sends, checked on the JSON payloads SimCord records.

Discord answers 400 to a payload past these limits, and the player sees nothing (or "This interaction failed").
SimCord enforces some of them; this check covers all that the bot could reach, for every request in the suite.
"""

from __future__ import annotations

from typing import Any

CONTENT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL = 6000
EMBED_FIELDS = {"title": 256, "description": 4096}
FIELD_COUNT, FIELD_NAME, FIELD_VALUE = 25, 256, 1024
FOOTER, AUTHOR = 2048, 256
ROWS, ROW_ITEMS = 5, 5
CUSTOM_ID, BUTTON_LABEL, PLACEHOLDER = 100, 80, 150
SELECT_OPTIONS, OPTION_TEXT = 25, 100
CHOICES, CHOICE_NAME, CHOICE_VALUE = 25, 100, 100
ATTACHMENT_DESCRIPTION = 1024


def violations(payload: Any) -> list[str]:
    """Every limit the payload breaks, in words (empty when it is fine)."""
    if not isinstance(payload, dict):
        return []
    problems: list[str] = []
    data = payload.get("data")
    body = data if isinstance(data, dict) else payload
    _check_message(body, problems)
    if body is not payload:
        _check_message(payload, problems)
    return problems


def _too_long(problems: list[str], what: str, text: Any, limit: int) -> None:
    if isinstance(text, str) and len(text) > limit:
        problems.append(f"{what} has {len(text)} characters (limit {limit})")


def _check_message(body: dict[str, Any], problems: list[str]) -> None:
    _too_long(problems, "content", body.get("content"), CONTENT)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (limit {EMBEDS_PER_MESSAGE})")
    total = sum(_check_embed(embed, problems) for embed in embeds)
    if total > EMBED_TOTAL:
        problems.append(f"embeds hold {total} characters in all (limit {EMBED_TOTAL})")
    rows = body.get("components") or []
    if len(rows) > ROWS:
        problems.append(f"{len(rows)} component rows (limit {ROWS})")
    for row in rows:
        items = row.get("components", [])
        if len(items) > ROW_ITEMS:
            problems.append(f"a row of {len(items)} components (limit {ROW_ITEMS})")
        for item in items:
            _check_component(item, problems)
    for attachment in body.get("attachments") or []:
        _too_long(problems, "an attachment description", attachment.get("description"), ATTACHMENT_DESCRIPTION)
    choices = body.get("choices")
    if choices is not None:
        if len(choices) > CHOICES:
            problems.append(f"{len(choices)} autocomplete choices (limit {CHOICES})")
        for choice in choices:
            _too_long(problems, "an autocomplete name", choice.get("name"), CHOICE_NAME)
            _too_long(problems, "an autocomplete value", choice.get("value"), CHOICE_VALUE)


def _check_embed(embed: dict[str, Any], problems: list[str]) -> int:
    """Check one embed; returns the characters it counts towards the message's total."""
    counted = 0
    for key, limit in EMBED_FIELDS.items():
        _too_long(problems, f"an embed {key}", embed.get(key), limit)
        counted += len(embed.get(key) or "")
    fields = embed.get("fields") or []
    if len(fields) > FIELD_COUNT:
        problems.append(f"an embed with {len(fields)} fields (limit {FIELD_COUNT})")
    for field in fields:
        _too_long(problems, "an embed field name", field.get("name"), FIELD_NAME)
        _too_long(problems, "an embed field value", field.get("value"), FIELD_VALUE)
        counted += len(field.get("name") or "") + len(field.get("value") or "")
    footer = (embed.get("footer") or {}).get("text")
    author = (embed.get("author") or {}).get("name")
    _too_long(problems, "an embed footer", footer, FOOTER)
    _too_long(problems, "an embed author", author, AUTHOR)
    return counted + len(footer or "") + len(author or "")


def _check_component(item: dict[str, Any], problems: list[str]) -> None:
    _too_long(problems, "a custom id", item.get("custom_id"), CUSTOM_ID)
    _too_long(problems, "a button label", item.get("label") if item.get("type") == 2 else None, BUTTON_LABEL)
    _too_long(problems, "a placeholder", item.get("placeholder"), PLACEHOLDER)
    options = item.get("options") or []
    if len(options) > SELECT_OPTIONS:
        problems.append(f"a select with {len(options)} options (limit {SELECT_OPTIONS})")
    for option in options:
        for key in ("label", "value", "description"):
            _too_long(problems, f"a select option {key}", option.get(key), OPTION_TEXT)
