-- Reason: the host adds computer players to a lobby (issue 15), each with a strength; the seat keeps it, so the bot
-- knows which computer player moves for the seat, names it ("Computer (hard)") and rates it under that strength.
-- Computer seats made before this file (none were ever offered in a lobby) play as medium.

ALTER TABLE seats ADD COLUMN strength TEXT CHECK (strength IS NULL OR strength IN ('easy', 'medium', 'hard'));

UPDATE seats SET strength = 'medium' WHERE is_computer = 1;
