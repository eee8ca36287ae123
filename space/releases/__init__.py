"""The board's releases: each frozen board, how figures and ranks moved, the changelog."""
