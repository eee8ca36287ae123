"""``python -m synthetic``: see ``synthetic.cli``."""

import sys

from synthetic.cli import main

sys.exit(main())
