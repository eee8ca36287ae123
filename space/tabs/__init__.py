"""One module a tab: the gradio wiring of each page (its logic is in ``space.pages``)."""

from space.tabs import about, explorer, leaderboard, maintainers, my_submissions, submit

__all__ = ["about", "explorer", "leaderboard", "maintainers", "my_submissions", "submit"]
