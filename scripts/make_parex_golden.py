"""Run the METEOR 1.5 jar's Meteor Universal tools on ``tests/data/parex`` and keep their output.

Golden files written under ``tests/data/parex/golden/`` (each run's exact command goes into
``commands.json`` there, with the jar's path, size and SHA-256 and the Java version):

* ``parex/``: ``Parex corpus.f corpus.e phrase-table.gz corpus.e OUT`` (default thresholds);
* ``edge/``: ``Parex edge.f edge.e edge-table.gz edge.e OUT`` (skipped lines, defaults);
* ``edge-args/``: the same with ``0.0001 0.9 0.15 ,`` (every optional argument);
* each of those holds the five files Parex writes and its stderr (``stderr.txt``);
* ``universal/``: the folder Meteor Universal's ``new_language.py`` makes from the same inputs
  (inputs lower-cased, ``Parex``, ``parex.e`` copied to ``function.words``, ``paraphrase.gz``
  rewritten as three-line records), made here with the jar's ``Parex`` and this script's own
  copy of those two steps;
* ``universal-score.out``: ``java -jar meteor-1.5.jar score.hyp score.ref -new universal``
  (stdout), and ``universal-score-norm.out`` with ``-norm -l fr -m exact`` added (``-new``
  overrides them);
* ``usage.json``: the usage texts of ``Parex`` and ``FilterParaphrase`` and ``Parex``'s
  refusal of an existing output folder (stdout, stderr, exit status);
* ``filter/``: ``FilterParaphrase universal/paraphrase.gz filtered.gz filter-ref.txt score.ref``
  (the kept records and stdout).

Run from the repository root after ``scripts/make_parex_fixture.py``::

    python scripts/make_parex_golden.py [--jar PATH]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path

from _common import official_jar_or_exit

DATA = Path("tests/data/parex")
GOLDEN = DATA / "golden"


def java_version() -> str:
    """``java -version``'s first line."""
    done = subprocess.run(["java", "-version"], capture_output=True, text=True, check=True)
    return done.stderr.splitlines()[0]


def java(jar: Path | str, main: str | None, *args: str, heap: bool = False) -> list[str]:
    """The command ``java -cp JAR MAIN ARGS``, or ``java -jar JAR ARGS`` without a main class
    (the scorer), with ``-Xmx2G`` after ``java`` when ``heap`` (as the jar's README runs it)."""
    entry = ["-jar", str(jar)] if main is None else ["-cp", str(jar), main]
    return ["java", *(["-Xmx2G"] if heap else []), *entry, *args]


def run(
    command: list[str], commands: dict[str, list[str]], name: str
) -> subprocess.CompletedProcess[bytes]:
    """Run a jar command from ``DATA`` and record it."""
    shown = [str(Path(c).name) if c.endswith(".jar") else c for c in command]
    commands[name] = shown
    return subprocess.run(command, cwd=DATA, capture_output=True, check=True)


def parex(
    jar: Path, commands: dict[str, list[str]], name: str, inputs: list[str], extra: list[str]
) -> None:
    """One Parex run into ``golden/NAME``."""
    target = GOLDEN / name
    shutil.rmtree(target, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        done = run(java(jar, "Parex", *inputs, str(out), *extra, heap=True), commands, name)
        shutil.copytree(out, target)
    commands[name][commands[name].index(str(out))] = "OUT"
    (target / "stderr.txt").write_bytes(done.stderr)


def lower_file(source: Path, target: Path, limit: int | None = None) -> None:
    """new_language.py's ``lower``: each line lower-cased (gzip kept gzip)."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rb") as handle:
        lines = handle.read().decode("utf-8").splitlines(keepends=True)
    if limit is not None:
        lines = lines[:limit]
    data = "".join(line.lower() for line in lines).encode("utf-8")
    if target.suffix == ".gz":
        with gzip.open(target, "wb") as out:
            out.write(data)
    else:
        target.write_bytes(data)


def three_line(source: Path, target: Path) -> None:
    """new_language.py's ``par_fmt``: ``a ||| b ||| p`` lines as probability, a, b records."""
    out = io.StringIO()
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for line in handle:
            a, b, prob = line.strip().split(" ||| ")
            out.write(f"{prob}\n{a}\n{b}\n")
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as gz:
        gz.write(out.getvalue().encode("utf-8"))
    target.write_bytes(buffer.getvalue())


def universal(jar: Path, commands: dict[str, list[str]]) -> None:
    """The folder new_language.py builds, with the jar's Parex."""
    target = GOLDEN / "universal"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lower_file(DATA / "corpus.f", work / "corpus.f")
        lower_file(DATA / "corpus.e", work / "corpus.e")
        lower_file(DATA / "phrase-table.gz", work / "pt.gz")
        lower_file(DATA / "corpus.e", work / "tgt-corpus.e", 10000)
        inputs = [str(work / n) for n in ("corpus.f", "corpus.e", "pt.gz", "tgt-corpus.e")]
        run(
            java(jar, "Parex", *inputs, str(work / "parex"), heap=True),
            commands,
            "universal",
        )
        commands["universal"] = [
            Path(c).name if c.startswith(tmp) else c for c in commands["universal"]
        ]
        shutil.copy(work / "parex" / "parex.e", target / "function.words")
        three_line(work / "parex" / "paraphrase.gz", target / "paraphrase.gz")


def score(jar: Path, commands: dict[str, list[str]]) -> None:
    """The jar's -new scoring on the score fixture."""
    base = java(jar, None, "score.hyp", "score.ref", "-new", "golden/universal", heap=True)
    done = run(base, commands, "universal-score")
    (GOLDEN / "universal-score.out").write_bytes(done.stdout)
    done = run([*base, "-norm", "-l", "fr", "-m", "exact"], commands, "universal-score-norm")
    (GOLDEN / "universal-score-norm.out").write_bytes(done.stdout)


def filter_table(jar: Path, commands: dict[str, list[str]]) -> None:
    """FilterParaphrase on the universal table."""
    target = GOLDEN / "filter"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    command = java(
        jar,
        "FilterParaphrase",
        "golden/universal/paraphrase.gz",
        "golden/filter/filtered.gz",
        "filter-ref.txt",
        "score.ref",
    )
    done = run(command, commands, "filter")
    (target / "stdout.txt").write_bytes(done.stdout)


def usage_cases(jar: Path, commands: dict[str, list[str]]) -> None:
    """Usage texts and the existing-folder refusal: stdout, stderr, exit status."""
    cases = {
        "parex-usage": ["Parex", "a", "b", "c", "d"],
        "parex-exists": ["Parex", "a", "b", "c", "d", "golden"],
        "filter-usage": ["FilterParaphrase", "a", "b"],
    }
    results = {}
    for name, args in cases.items():
        commands[name] = java("meteor-1.5.jar", *args)
        done = subprocess.run(java(jar, *args), cwd=DATA, capture_output=True)
        results[name] = {
            "args": args,
            "status": done.returncode,
            "stdout": done.stdout.decode("utf-8"),
            "stderr": done.stderr.decode("utf-8"),
        }
    text = json.dumps(results, indent=2, ensure_ascii=False) + "\n"
    (GOLDEN / "usage.json").write_text(text, encoding="utf-8")


def main() -> None:
    """Make every golden file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jar", type=Path, default=None)
    args = parser.parse_args()
    jar = (args.jar or official_jar_or_exit()).resolve()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    commands: dict[str, list[str]] = {}
    parex(jar, commands, "parex", ["corpus.f", "corpus.e", "phrase-table.gz", "corpus.e"], [])
    parex(jar, commands, "edge", ["edge.f", "edge.e", "edge-table.gz", "edge.e"], [])
    parex(
        jar,
        commands,
        "edge-args",
        ["edge.f", "edge.e", "edge-table.gz", "edge.e"],
        ["0.0001", "0.9", "0.15", ","],
    )
    universal(jar, commands)
    score(jar, commands)
    filter_table(jar, commands)
    usage_cases(jar, commands)
    record = {
        "tool": "meteor-1.5.jar (PyPI pycocoevalcap 1.2)",
        "jar_sha256": hashlib.sha256(jar.read_bytes()).hexdigest(),
        "java": java_version(),
        # The jar deflates with the system zlib; equal gzip bytes are expected with this version.
        "zlib": zlib.ZLIB_RUNTIME_VERSION,
        "cwd": str(DATA),
        "commands": commands,
    }
    (GOLDEN / "commands.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"golden files written under {GOLDEN}")


if __name__ == "__main__":
    main()
