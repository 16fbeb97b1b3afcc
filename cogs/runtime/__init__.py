"""What every game's Discord side gets, and nothing that names a game.

The presenter and delivery that keep tables and hands current, catch-up after a restart, the request budget, languages
and command translations, errors told in words, ids and lookups. A game's own package (`cogs/<kind>/`) registers its
`GameUI` with the presenter.
"""
