"""Tests against the real app: in Chromium (``test_pages``) and over HTTP (``test_http``)."""
