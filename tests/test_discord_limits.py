"""The limit check itself must be able to fail."""

from typing import Any

import pytest

from tests.discord_limits import violations


def test_a_payload_within_every_limit_passes() -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 3000, "fields": [{"name": "n", "value": "v" * 1024}]}],
        "components": [{"type": 1, "components": [{"type": 2, "label": "l" * 80, "custom_id": "c" * 100}]}],
    }
    assert violations(payload) == []


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"content": "x" * 2001}, "content has 2001 characters"),
        ({"type": 4, "data": {"content": "x" * 2001}}, "content has 2001 characters"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "6001 characters in all"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "field value has 1025"),
        ({"components": [{"type": 1, "components": [{"type": 2, "label": "l" * 81}]}]}, "button label has 81"),
        ({"components": [{"type": 1, "components": [{"type": 2, "custom_id": "c" * 101}]}]}, "custom id has 101"),
        ({"components": [{"type": 1, "components": [{"type": 3, "options": [{"label": "a"}] * 26}]}]}, "26 options"),
        ({"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}}, "autocomplete name has 101"),
        ({"type": 8, "data": {"choices": [{"name": "n", "value": "v"}] * 26}}, "26 autocomplete choices"),
        ({"attachments": [{"id": 0, "description": "d" * 1025}]}, "attachment description has 1025"),
    ],
)
def test_each_limit_is_caught(payload: dict[str, Any], expected: str) -> None:
    assert any(expected in problem for problem in violations(payload)), violations(payload)
