-- Reason: messages are data (issue 25). A game's narration (`games.narration`, the last action as the table tells
-- it) was a JSON list of English sentences; it is now a JSON list of messages, each {"id": ..., "params": {...}}
-- (engine.message.to_json), which the presenter puts into the reader's language. Sentences stored before this are
-- kept as they were, wrapped in the message `shared.stored-text` whose words are the text itself, so old games stay
-- readable: their last action is shown in the English it was stored in.

UPDATE games
SET narration = (
    SELECT json_group_array(json_object('id', 'shared.stored-text', 'params', json_object('text', line.value)))
    FROM (SELECT value FROM json_each(games.narration) ORDER BY key) AS line
)
WHERE narration IS NOT NULL AND json_type(narration) = 'array' AND json_array_length(narration) > 0;
