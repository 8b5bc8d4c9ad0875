"""``python -m meteor_eval``: the same as the ``meteor-eval`` command."""

import sys

from meteor_eval.cli import main

if __name__ == "__main__":
    sys.exit(main())
