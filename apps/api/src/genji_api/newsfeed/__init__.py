"""Newsfeed entries and the api.newsfeed.create job that posts each one."""
