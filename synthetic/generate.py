"""Make samples in order, on worker processes when the job is big enough to pay for them.

Samples are independent (each has its own seed), so workers change nothing in the output.
At most a few samples are in flight at a time, which keeps memory bounded for any split.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from synthetic.sample import Sample, make_sample

# Below this many pixels in a job, starting worker processes costs more than it saves.
PARALLEL_PIXELS = 40 * 640 * 480
IN_FLIGHT_PER_WORKER = 2


def _start_method() -> str:
    """``fork`` when safe (one thread: nothing can hold a lock the child would inherit).

    Otherwise (a web app's threads) ``spawn``, which needs the caller's main module to be
    importable without side effects (the ``if __name__ == "__main__"`` idiom).
    """
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


class SampleMaker:
    """Produces samples of any split, in index order; use as a context manager."""

    def __init__(self, seed: int, size: tuple[int, int], total: int) -> None:
        self.seed, self.size = seed, size
        workers = min(os.cpu_count() or 1, 4)
        self.pool: ProcessPoolExecutor | None = None
        if workers > 1 and total * size[0] * size[1] >= PARALLEL_PIXELS:
            context = multiprocessing.get_context(_start_method())
            self.pool = ProcessPoolExecutor(workers, mp_context=context)
            self.window = workers * IN_FLIGHT_PER_WORKER

    def samples(self, split: str, indices: Iterable[int]) -> Iterator[Sample]:
        if self.pool is None:
            for index in indices:
                yield make_sample(split, index, self.seed, self.size)
            return
        pending: deque[Future[Sample]] = deque()
        for index in indices:
            pending.append(self.pool.submit(make_sample, split, index, self.seed, self.size))
            if len(pending) >= self.window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def __enter__(self) -> SampleMaker:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
