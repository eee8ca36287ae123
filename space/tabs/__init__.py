"""One module a tab of the signed-in Gradio pages (their logic is in ``space.pages``)."""

from space.tabs import explorer, maintainers, my_submissions, submit

__all__ = ["explorer", "maintainers", "my_submissions", "submit"]
