"""Each SQL role provides its port of `service.ports`, and the stores of both backends compose every role.

`db` may not import `service` (tests/test_layering.py), so mypy checks the ports against the composed store only
(where `bot.py` holds it); this test holds each role to its own port.
"""

import inspect
from collections.abc import Callable

import pytest

from db.postgres.store import PgDelivery, PostgresStore
from db.sql_boards import SqlBoards
from db.sql_checks import SqlChecks
from db.sql_delivery import SqlDelivery
from db.sql_games import SqlGames
from db.sql_members import SqlMemberRecords
from db.sql_settings import SqlServerSettings
from db.sql_store import SqlStore
from db.store import Store
from service import ports

ROLES = [
    (SqlChecks, ports.StartUpChecks),
    (SqlGames, ports.GameRepository),
    (SqlDelivery, ports.DeliveryProjection),
    (PgDelivery, ports.DeliveryProjection),
    (SqlBoards, ports.Boards),
    (SqlServerSettings, ports.ServerSettings),
    (SqlMemberRecords, ports.MemberRecords),
]


def port_members(port: type) -> set[str]:
    return {name for name in dir(port) if not name.startswith("_") and inspect.isfunction(getattr(port, name))}


def shape(function: Callable[..., object]) -> list[tuple[str, object, bool, object]]:
    """Each parameter's name, kind, whether it has a default, and its annotation (as written)."""
    return [
        (parameter.name, parameter.kind, parameter.default is not inspect.Parameter.empty, parameter.annotation)
        for parameter in inspect.signature(function).parameters.values()
    ]


@pytest.mark.parametrize(("role", "port"), ROLES, ids=lambda item: item.__name__)
def test_each_sql_role_provides_its_port(role: type, port: type) -> None:
    members = port_members(port)
    assert members
    for name in sorted(members):
        assert hasattr(role, name), f"{role.__name__} lacks {port.__name__}.{name}"
        implemented, promised = getattr(role, name), getattr(port, name)
        assert inspect.iscoroutinefunction(implemented) == inspect.iscoroutinefunction(promised), name
        # The port's parameters as promised; anything more a role takes is an option of its own (keyword, defaulted).
        extra = [item for item in shape(implemented) if item not in shape(promised)]
        assert [item for item in shape(implemented) if item not in extra] == shape(promised), f"{role.__name__}.{name}"
        assert all(kind is inspect.Parameter.KEYWORD_ONLY and default for _, kind, default, _ in extra), name
        assert inspect.signature(implemented).return_annotation == inspect.signature(promised).return_annotation


def test_each_role_lives_in_its_own_class_and_the_store_only_composes_them() -> None:
    # The façade has no statements of its own: every port's method is a role's, bound at construction.
    own = {name for name, value in vars(SqlStore).items() if inspect.isfunction(value)}
    assert own == {"__init__"}
    for backend in (Store, PostgresStore):
        assert not port_members(ports.GameStore) & {name for name in vars(backend) if not name.startswith("_")}


async def test_the_store_is_every_port_through_its_roles(store: SqlStore) -> None:
    roles = {
        "games": ports.GameRepository,
        "delivery": ports.DeliveryProjection,
        "boards": ports.Boards,
        "server_settings": ports.ServerSettings,
        "members": ports.MemberRecords,
    }
    for attribute, port in roles.items():
        role = getattr(store, attribute)
        for name in port_members(port):
            assert getattr(store, name).__self__ is role, name
    assert port_members(ports.GameStore) == set().union(*(port_members(port) for port in roles.values()))
