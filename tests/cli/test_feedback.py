"""What the command line prints on stderr besides results: -q/-v and the progress bars."""

from __future__ import annotations

import io
import logging
import sys
from pathlib import Path

import pytest

from fakes import run_fresh
from meteor_eval.cli import _feedback
from meteor_eval.cli._feedback import ProgressBar

log = logging.getLogger("meteor_eval.resources.paraphrases")


@pytest.fixture(autouse=True)
def _restore() -> object:
    logger = logging.getLogger("meteor_eval")
    level = logger.level
    yield
    _feedback.configure(0, progress=False)
    for handler in list(logger.handlers):
        if getattr(handler, "cli_owned", False):
            logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.mark.parametrize(
    ("verbosity", "expected"),
    [
        (-1, "meteor-eval: warning: w\n"),
        (
            0,
            "meteor-eval: building the paraphrase index for t.gz (once, ~1 s) into P\n"
            "meteor-eval: warning: w\n",
        ),
        (
            1,
            "meteor-eval: d\nmeteor-eval: building the paraphrase index for t.gz (once, ~1 s) "
            "into P\nmeteor-eval: warning: w\n",
        ),
    ],
)
def test_verbosity(verbosity: int, expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    _feedback.configure(verbosity, progress=True)  # stderr is not a terminal here
    log.debug("d")
    log.info("building the paraphrase index for %s (once, ~%d s) into %s", "t.gz", 1, "P")
    log.warning("w")
    assert capsys.readouterr().err == expected


def test_configure_twice_keeps_one_handler(capsys: pytest.CaptureFixture[str]) -> None:
    _feedback.configure(0, progress=False)
    _feedback.configure(0, progress=False)
    log.warning("once")
    assert capsys.readouterr().err == "meteor-eval: warning: once\n"


def test_on_a_terminal_the_bar_replaces_the_notice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor_eval.resources import paraphrases

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    _feedback.configure(0, progress=True)
    assert paraphrases._progress_factory is _feedback._IndexBar
    log.info("building the paraphrase index for %s (once, ~%d s) into %s", "t.gz", 1, "P")
    log.info("other notice")
    assert capsys.readouterr().err == "meteor-eval: other notice\n"
    _feedback.configure(0, progress=False)  # --no-progress: the line again, no bar
    assert paraphrases._progress_factory is None


def test_segment_bar_waits_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    progress = ProgressBar("", 10)
    progress(5)
    progress(10)
    assert progress.bar.n == 10
    progress.close()
    assert stream.getvalue() == ""  # closed within the first second: never drawn


def test_configuration_waits_for_the_first_logger() -> None:
    # issue 23: without logging loaded, configure() imports nothing of it; the library's first
    # logger applies the latest configuration before its first message.
    done = run_fresh(
        "import sys\n"
        "from meteor_eval.cli._feedback import configure\n"
        "configure(-1, progress=False)\n"
        "configure(0, progress=False)\n"
        "print('logging' in sys.modules)\n"
        "from meteor_eval._log import get_logger\n"
        "get_logger('meteor_eval.resources.registry').info('notice')\n"
        "get_logger('meteor_eval.resources.registry').debug('hidden')\n"
        "import logging\n"
        "handlers = logging.getLogger('meteor_eval').handlers\n"
        "print(sum(getattr(h, 'cli_owned', False) for h in handlers))\n"
    )
    assert done.stdout.split() == ["False", "1"]
    assert done.stderr == "meteor-eval: notice\n"


def test_a_scoring_run_that_logs_nothing_does_not_import_logging(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("the cat sat\nÉtat ΣΟΦΙΑ\n", encoding="utf-8")
    (tmp_path / "r").write_text("a cat sits\nétat σοφια\n", encoding="utf-8")
    done = run_fresh(
        "import sys\n"
        "from meteor_eval.cli import main\n"
        f"status = main(['score', '--hyp', {str(tmp_path / 'h')!r}, '--ref', "
        f"{str(tmp_path / 'r')!r}, '--modules', 'exact', '--no-progress', '--norm'])\n"
        "print(status, 'logging' in sys.modules, file=sys.stderr)\n"
    )
    assert done.stderr.split() == ["0", "False"]
