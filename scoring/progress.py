"""A progress bar for long command-line work: tqdm on stderr when it is a terminal, silent otherwise."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


class ProgressBar:
    """``with ProgressBar("scoring", unit="row") as update: update(done, total)``."""

    def __init__(self, description: str, unit: str) -> None:
        self.description, self.unit = description, unit
        self.bar: Any = None

    def __enter__(self) -> Callable[[int, int | None], None]:
        return self.update

    def update(self, done: int, total: int | None) -> None:
        if not sys.stderr.isatty():
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=self.description, unit=self.unit, file=sys.stderr, leave=False)
        self.bar.update(done - self.bar.n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()
