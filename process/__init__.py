"""How the bot's long-lived process runs, whatever it hosts: its event loop and its heap (as the benches do)."""
