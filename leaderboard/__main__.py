import sys

from leaderboard.cli import main

sys.exit(main())
