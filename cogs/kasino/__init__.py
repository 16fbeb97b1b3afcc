"""Kasino's Discord side: its table, its private hands by DM, its commands (`cog`, the extension the bot loads)."""
