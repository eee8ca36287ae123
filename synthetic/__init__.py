"""A deterministic synthetic NaviTrace dataset, in the real one's schema and Hub layout.

The real dataset is not always reachable (and its test ground truth is private), so the
app embeds this one as a default and the tests build small copies of it::

    from synthetic import write_demo_dataset
    write_demo_dataset("demo", samples=24, size=(640, 480), seed=0)
    datasets.load_dataset("demo", split="test")

Scenes are procedural first-person street, square, park and countryside views; traces are
planned per embodiment on the label mask with the benchmark's penalty table (see
``planner``). Sample ``i`` of a split depends only on ``(seed, split, i, size)``.
"""

from __future__ import annotations

from synthetic.dataset import write_demo_dataset

__all__ = ["write_demo_dataset"]
