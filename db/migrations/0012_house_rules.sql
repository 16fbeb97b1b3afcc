-- Reason: house rules (issue 26). Each server's usual house rules per game kind, saved by its managers with
-- `/houserules` and read by every new lobby of that kind there, as a JSON object of settings (the kind's house-rule
-- settings only; the kind checks each value when it is saved and again when a lobby starts from it). And on each
-- result row whether the game was played under house rules (any of its kind's house rules off its default), set
-- when the result is recorded from the settings the game was played with, so `/stats` counts those games along with
-- the figures it already sums from the same rows. Rows recorded before this say 0: the bot offered no house rules.

CREATE TABLE house_rule_presets (
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    settings   TEXT    NOT NULL CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, kind)
) STRICT, WITHOUT ROWID;

ALTER TABLE results ADD COLUMN house_rules INTEGER NOT NULL DEFAULT 0 CHECK (house_rules IN (0, 1));
