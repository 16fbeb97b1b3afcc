-- Reason: the language a server's public text is told in (issue 25), chosen by its managers with `/language`.
-- NULL (the default) follows the server's preferred locale on Discord, then English. The codes are the catalogs'
-- (`i18n.LOCALES`): English, Norwegian Bokmål (Discord's `no`), Indonesian and Hungarian.

ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'no', 'id', 'hu'));
