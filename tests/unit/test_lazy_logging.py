"""The package's NullHandler without importing ``logging`` up front (``meteor_eval._log``)."""

from __future__ import annotations

from fakes import run_fresh


def test_nltk_flavour_run_does_not_import_logging() -> None:
    done = run_fresh(
        "import sys\n"
        "from meteor_eval.compat.nltk import meteor_score\n"
        "score = meteor_score([['the', 'cats', 'sat']], ['a', 'cat', 'sits'])\n"
        "print(score > 0, 'logging' in sys.modules)\n"
    )
    assert done.stdout.split() == ["True", "False"]


def test_a_lazy_logger_prints_nothing_by_itself() -> None:
    # logging not loaded at the package's import: the first logger made by the library
    # attaches the handler, so Python's last-resort handler does not print the warning.
    done = run_fresh(
        "import sys\n"
        "import meteor_eval\n"
        "assert 'logging' not in sys.modules\n"
        "from meteor_eval._log import get_logger\n"
        "get_logger('meteor_eval.resources.registry').warning('damaged copy')\n"
        "get_logger('meteor_eval.resources.registry').warning('damaged copy')\n"
        "import logging\n"
        "handlers = logging.getLogger('meteor_eval').handlers\n"
        "print(sum(isinstance(h, logging.NullHandler) for h in handlers))\n"
    )
    assert done.stderr == ""
    assert done.stdout.split() == ["1"]


def test_handler_attached_at_import_when_logging_is_loaded() -> None:
    done = run_fresh(
        "import logging\n"
        "import meteor_eval\n"
        "handlers = logging.getLogger('meteor_eval').handlers\n"
        "print(sum(isinstance(h, logging.NullHandler) for h in handlers))\n"
    )
    assert done.stdout.split() == ["1"]


def test_paraphrase_module_logger_prints_nothing_by_itself() -> None:
    done = run_fresh(
        "import meteor_eval.resources.paraphrases as p\n"
        "p.logger.warning('paraphrase index unusable')\n"
    )
    assert done.stderr == ""
