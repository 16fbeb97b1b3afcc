-- Reason: issue 42, the notice that a player's DMs are closed offers Show my hand until the game is over. Its message
-- id is kept with the game, like the turn warning's, so that the delivery can take the button away once the game
-- ends (and after a restart too).

ALTER TABLE games ADD COLUMN dm_notice_message_id INTEGER;
