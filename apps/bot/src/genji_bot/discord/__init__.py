"""The bot's discord.py side: the port adapter, the client, persistent views and components."""
