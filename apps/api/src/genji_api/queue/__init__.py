"""Producing jobs and reading their status: thin calls into the SQL functions in sql/."""
