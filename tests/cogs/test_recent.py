"""The picture cache keeps the newest values and drops the oldest first."""

from cogs.runtime.recent import Recent


def test_the_least_recently_used_value_goes_first() -> None:
    cache: Recent[str, int] = Recent(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now the newest
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
