"""``python -m synthetic demo-data``: write a synthetic dataset in the NaviTrace schema and Hub layout.

``python -m scoring demo-data`` runs this command (in a child process: ``scoring`` does not depend
on the generator); both take the same arguments and print the folder they wrote.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scoring.cli import DEMO_DATA_HELP, add_demo_data_arguments
from scoring.progress import ProgressBar


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m synthetic", description="The synthetic NaviTrace dataset.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_demo_data_arguments(commands.add_parser("demo-data", help=DEMO_DATA_HELP))
    args = parser.parse_args(argv)
    return demo_data(args)


def demo_data(args: argparse.Namespace) -> int:
    from synthetic.dataset import write_demo_dataset  # deferred: --help stays quick

    with ProgressBar("writing samples", unit="sample") as progress:
        out = write_demo_dataset(
            args.out_dir, samples=args.samples, size=args.size, seed=args.seed, public=args.public, progress=progress
        )
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
