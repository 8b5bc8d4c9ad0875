"""``python -m meteor_eval.compat.sacrebleu``: sacrebleu's command line is not in the drop-in."""

from __future__ import annotations

import sys

from meteor_eval.compat.sacrebleu._missing import not_provided


def main() -> int:
    """Print why there is no command line here and what to use; exit status 2."""
    print(str(not_provided("sacrebleu's command line", "cli")), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
