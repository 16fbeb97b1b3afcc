"""Issue 26: the house-rules panel fits Discord's limits for any kind (five rows, 25 options a menu, pages when a kind
has more rules than one message holds), and a result in partnerships shows each team as one entry."""

import contextlib
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

import cogs.runtime.house_rules
from cogs.house_rules import offered, panel, panel_pages, preset_panel
from cogs.runtime.host import GameBot
from cogs.runtime.presenter import Presenter
from db.records import GameRecord
from engine import registry
from engine.base import AnyGame
from engine.kinds import GameKind, HouseRule
from engine.message import Message
from tests import toy_game
from tests.db.helpers import TeamOutcome
from tests.discord_limits import violations

# Lists a fake kind among the registry's kinds while the test runs, and returns it.
Listed = Callable[[GameKind], GameKind]

TARGET = HouseRule("KV1", "target", (11, 16, 21, *(n for n in range(1, 100) if n not in (11, 16, 21))), 16)


@pytest.fixture
def listed() -> Iterator[Listed]:
    """Lists the fake kinds a test makes (`listed(kind)`) while it runs."""
    with contextlib.ExitStack() as stack:
        yield lambda kind: stack.enter_context(registry.registered(kind))


def fake_kind(choices: int, toggles: int) -> GameKind:
    """A kind (the toy's engine) with `choices` rules of three values and `toggles` on/off rules, and KV1's target."""
    rules = [TARGET]
    rules += [HouseRule(f"C{n}", f"choice{n}", ("a", "b", "c"), "a") for n in range(choices - 1)]
    rules += [HouseRule(f"T{n}", f"toggle{n}", (False, True), False) for n in range(toggles)]
    return GameKind(
        name="fake",
        code="f",
        engine=toy_game.HighCard,
        score_unit="count.point",
        private_hands=True,
        tagline="",
        options=(),
        # The fake kinds' words are their catalog ids (`words`): any object's text will do as the lobby's line.
        settings_line=cast("Callable[[Any], Message]", str),
        house_rules=tuple(rules),
    )


@pytest.fixture(autouse=True)
def words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind-owned word as its catalog id (the fake kinds have no catalog)."""
    monkeypatch.setattr(cogs.runtime.house_rules, "say", lambda locale, key, **params: f"{key}{sorted(params.items())}")


def payload(shown: dict[str, Any]) -> dict[str, Any]:
    return {"content": shown["content"], "components": shown["view"].to_components()}


@pytest.mark.parametrize(("choices", "toggles", "pages"), [(4, 3, 1), (1, 1, 1), (6, 6, 2), (9, 13, 3)])
@pytest.mark.parametrize("saving", [False, True])
def test_every_page_of_the_panel_fits_a_message(
    choices: int, toggles: int, pages: int, saving: bool, listed: Listed
) -> None:
    kind = listed(fake_kind(choices, toggles))
    assert len(panel_pages(kind, saving=saving)) == pages
    for page in range(pages):
        shown = panel(kind, 7, {"target": 99}, "head", "en", page, saving=saving)
        assert violations(payload(shown)) == []
        rows = shown["view"].to_components()
        assert len(rows) <= 5
        ids = [item["custom_id"] for row in rows for item in row["components"]]
        assert len(ids) == len(set(ids))
    controls = [
        item["custom_id"]
        for page in range(pages)
        for row in panel(kind, 7, {}, "head", "en", page, saving=saving)["view"].to_components()
        for item in row["components"]
        if ":hr:" in item["custom_id"]
    ]
    assert len(controls) == choices + toggles  # every rule has its control on some page


def test_a_menu_offers_25_values_the_usual_first_and_the_current_one_always(listed: Listed) -> None:
    assert offered(TARGET, 16)[:3] == [11, 16, 21] and len(offered(TARGET, 16)) == 25
    assert offered(TARGET, 99)[-1] == 99 and len(offered(TARGET, 99)) == 25
    shown = panel(listed(fake_kind(1, 0)), 7, {"target": 99}, "head", "en", 0, saving=False)
    menu = shown["view"].to_components()[0]["components"][0]
    assert [option["value"] for option in menu["options"] if option.get("default")] == ["99"]


def test_the_managers_panel_names_the_servers_usual_rules_and_has_no_save_button(listed: Listed) -> None:
    shown = preset_panel(listed(fake_kind(2, 2)), {"toggle0": True}, "en")
    ids = [item["custom_id"] for row in shown["view"].to_components() for item in row["components"]]
    assert all(custom_id.startswith("f:0:0:") for custom_id in ids) and not any("hrsave" in i for i in ids)
    assert shown["content"].startswith("**High Card: this server's usual house rules.**")


def test_a_result_in_partnerships_shows_each_team_as_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real catalogs
    names = ["Kari", "Ola", "Nora", "Per"]
    record = SimpleNamespace(
        kind="kasino",
        id=9,
        status="finished",
        seats=tuple(SimpleNamespace(name=name, is_computer=False, strength=None, user_id=None) for name in names),
    )
    teams = TeamOutcome((1, 3, 1, 3), (16, 9, 16, 9), ((0, 2), (1, 3)))
    game = SimpleNamespace(outcome=lambda: teams)
    # The result line reads the record's kind, id and seats and the game's outcome alone; it needs no bot.
    no_bot = cast("GameBot", None)
    line = Presenter(no_bot).result_line(cast("GameRecord", record), cast("AnyGame", game), "en")
    assert line == "Kasino #9 is over. 1. Kari & Nora: 16 points, 3. Ola & Per: 9 points"
    alone = SimpleNamespace(outcome=lambda: TeamOutcome((1, 3, 1, 3), (16, 9, 16, 9)))
    line = Presenter(no_bot).result_line(cast("GameRecord", record), cast("AnyGame", alone), "en")
    assert line is not None
    assert line.startswith("Kasino #9 is over. 1. Kari: 16 points, 1. Nora")


async def test_a_control_naming_no_rule_or_no_value_is_refused(listed: Listed) -> None:
    from cogs.house_rules import HouseRuleControl
    from service.errors import RefusedError

    kind = listed(fake_kind(2, 1))
    with pytest.raises(RefusedError) as refused:
        HouseRuleControl("fake", 7, 9, "on").chosen(kind, "en")
    assert refused.value.message.id == "refused.no-such-house-rule"
    with pytest.raises(RefusedError) as refused:
        HouseRuleControl("fake", 7, 2, "maybe").chosen(kind, "en")  # a toggle's value is on or off
    assert refused.value.message.id == "refused.house-rule-value"
    assert HouseRuleControl("fake", 7, 2, "on").chosen(kind, "en") == (kind.house_rules[2], True)


def test_a_result_names_a_computer_once_in_brackets(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 42's stale lines: "Computer (medium) (20 points)" put two brackets side by side.
    monkeypatch.undo()  # the real catalogs
    seats = (
        SimpleNamespace(name="Kari", is_computer=False, strength=None, user_id=1),
        SimpleNamespace(name="Computer (medium)", is_computer=True, strength="medium", user_id=None),
    )
    record = SimpleNamespace(kind="kasino", id=4, status="finished", seats=seats)
    game = SimpleNamespace(outcome=lambda: TeamOutcome((2, 1), (9, 20)))
    line = Presenter(cast("GameBot", None)).result_line(cast("GameRecord", record), cast("AnyGame", game), "en")
    assert line == "Kasino #4 is over. 1. Computer (medium): 20 points, 2. Kari: 9 points"
