"""Operator failure alerts: durable records of held jobs, polled and delivered by the bot."""
