"""Garbage's Discord side: its table, its turn buttons, its commands (`cog`, the extension the bot loads)."""
