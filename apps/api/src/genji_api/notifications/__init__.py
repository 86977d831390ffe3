"""Notification events, delivery preferences and the api.notification.delivery job."""
