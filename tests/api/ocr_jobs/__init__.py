"""Tests of the completion and tournament OCR jobs."""
