"""Getting the public datasets ready in the background, so the first page does not wait for them.

On the embedded default the first start generates the synthetic datasets (many seconds); the
leaderboard page needs none of it, so the app serves pages at once while this thread loads the
public answer keys and writes the example submissions. Pages that need the data wait for it
(``wait``) with a clear message when it is not there yet.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from leaderboard.records import InvalidAction
from leaderboard.storage import AnswerKeys
from scoring.examples import write_example
from space.web.long_lived import freeze_long_lived

log = logging.getLogger(__name__)

# (file name, split, kind): the validation split has public ground truth, the public test split none.
EXAMPLES = (
    ("example_validation_noisy.tsv", "validation", "noisy"),
    ("example_validation_perfect.tsv", "validation", "perfect"),
    ("example_validation_straight.tsv", "validation", "straight"),
    ("example_test_straight.tsv", "test", "straight"),
)


class Warmup:
    def __init__(self, keys: AnswerKeys, examples_folder: Path) -> None:
        self.keys = keys
        self.folder = Path(examples_folder)
        self.ready = threading.Event()
        self.error: str | None = None
        self.seconds: float | None = None
        self._thread: threading.Thread | None = None

    def start(self, then: Callable[[], None] | None = None) -> threading.Thread:
        """Prepare the public datasets in a thread; ``then()`` runs there once they are ready."""
        self._thread = threading.Thread(target=self.run, args=(then,), name="warm-up", daemon=True)
        self._thread.start()
        return self._thread

    def run(self, then: Callable[[], None] | None = None) -> None:
        start = time.perf_counter()
        try:
            for split in ("validation", "test"):
                self.keys.public(split)
            self.folder.mkdir(parents=True, exist_ok=True)
            for name, split, kind in EXAMPLES:
                write_example(self.keys.public(split), kind, self.folder / name)
        except Exception as error:  # recorded for the pages; the traceback goes to the log
            log.exception("preparing the public datasets failed")
            self.error = f"{type(error).__name__}: {error}"
        else:
            self.seconds = time.perf_counter() - start
            log.info("public datasets ready in %.1f s", self.seconds)
            freeze_long_lived("public datasets loaded")  # the answer keys stay for the app's life
        finally:
            self.ready.set()
        if then is not None and self.error is None:
            try:
                then()
            except Exception:  # the pages work without it (a child starts at its first task instead)
                log.exception("what follows the public datasets' preparation failed")

    def wait(self, timeout: float = 120.0) -> None:
        """Return once the data is ready; ``InvalidAction`` (a message for people) when it is not."""
        if not self.ready.wait(timeout):
            raise InvalidAction(
                "the datasets are still being prepared (the first start generates them); try again in a few seconds"
            )
        if self.error:
            raise InvalidAction(f"the datasets could not be prepared, so this page cannot work: {self.error}")

    def example_files(self) -> list[Path]:
        if not self.ready.is_set() or self.error:
            return []
        return [self.folder / name for name, _, _ in EXAMPLES if (self.folder / name).is_file()]
