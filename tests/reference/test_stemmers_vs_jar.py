"""Stemmers against the official METEOR 1.5 jar.

Golden data: ``golden/stemmers/LANG.tsv.gz`` (see the README there), recorded from
``meteor-1.5.jar`` as shipped in PyPI ``pycocoevalcap`` 1.2 on OpenJDK 17 by
``python scripts/make_stem_golden.py``, i.e. ``java -Dfile.encoding=UTF-8 -cp meteor-1.5.jar
Stemmer LANG < words`` (one word per line) and, for Porter, a small class calling the jar's
``org.tartarus.snowball.ext.porterStemmer``. English covers the whole WordNet vocabulary and the
xray example tokens (172,395 words); every other language 8,000 synthetic words.

The golden comparison always runs. When java and the jar are available, the jar is also run live on
the same word lists, so the golden data itself is checked, and the Arabic lookup table shipped in
the jar is compared with :func:`arabic_table_stemmer`.
"""

from __future__ import annotations

import gzip
import importlib.util
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from meteor_eval.resources.stemmers import arabic_table_stemmer, get_stemmer, porter_stemmer

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "stemmers"
CODES = ("en", "fr", "de", "es", "pt", "ru", "da", "ro", "hu", "tr", "fi", "nl", "it", "no", "se")


@cache
def read_golden(code: str) -> tuple[list[str], list[list[str]]]:
    """Words and one full stem column per stemmer (jar's Snowball; for English also Porter),
    read by the script that records them."""
    words, columns = _script().read_tsv(GOLDEN / f"{code}.tsv.gz")
    return words, columns


def mismatches(
    stem: Callable[[str], str], words: Sequence[str], expected: Sequence[str]
) -> list[tuple[str, str, str]]:
    return [(w, stem(w), e) for w, e in zip(words, expected, strict=True) if stem(w) != e]


@pytest.mark.parametrize("code", CODES)
def test_snowball_matches_golden(code: str) -> None:
    words, columns = read_golden(code)
    assert len(words) >= 8000
    step = 5 if code == "en" else 1  # every 5th English word here; all of them in the slow test
    bad = mismatches(get_stemmer(code), words[::step], columns[0][::step])
    assert bad == [], f"{len(bad)} of {len(words)} differ (word, ours, jar): {bad[:10]}"


def test_porter_matches_golden() -> None:
    words, columns = read_golden("en")
    bad = mismatches(porter_stemmer(), words[2::5], columns[1][2::5])
    assert bad == [], f"{len(bad)} differ (word, ours, jar): {bad[:10]}"


@pytest.mark.slow
def test_english_and_porter_match_golden_on_whole_vocabulary() -> None:
    words, columns = read_golden("en")
    assert len(words) == 172_395
    for stem, expected in ((get_stemmer("en"), columns[0]), (porter_stemmer(), columns[1])):
        bad = mismatches(stem, words, expected)
        assert bad == [], f"{len(bad)} of {len(words)} differ (word, ours, jar): {bad[:10]}"


def test_golden_covers_known_jar_quirks() -> None:
    """The word lists contain the words where newer Snowball releases disagree with the jar."""
    en_words, en = read_golden("en")
    english = dict(zip(en_words, en[0], strict=True))
    porter = dict(zip(en_words, en[1], strict=True))
    assert english["added"] == "ad"
    assert english["biologist"] == "biologist"
    assert porter["s"] == ""
    de_words, de = read_golden("de")
    assert dict(zip(de_words, de[0], strict=True))["Ergebnissen"] == "Ergebniss"
    fi_words, fi = read_golden("fi")
    assert dict(zip(fi_words, fi[0], strict=True))["biviiseen"] == "biviis"


# --- live comparison with the jar -------------------------------------------------------------


def _script() -> ModuleType:
    path = ROOT / "scripts" / "make_stem_golden.py"
    spec = importlib.util.spec_from_file_location("make_stem_golden", path)
    if spec is None or spec.loader is None:
        pytest.skip(f"{path} not found")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_stem_golden", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.oracle
@pytest.mark.parametrize("code", CODES)
def test_jar_still_matches_golden(code: str, live_jar: Path) -> None:
    words, columns = read_golden(code)
    live = _script().run_jar_stemmer(live_jar, code, words)
    bad = [(w, j, g) for w, j, g in zip(words, live, columns[0], strict=True) if j != g]
    assert bad == [], f"golden out of date (word, jar, golden): {bad[:10]}"


@pytest.mark.oracle
@pytest.mark.slow
def test_jar_porter_still_matches_golden(live_jar: Path) -> None:
    if shutil.which("javac") is None:
        pytest.skip("javac not available")
    words, columns = read_golden("en")
    live = _script().run_jar_porter(live_jar, words)
    bad = [(w, j, g) for w, j, g in zip(words, live, columns[1], strict=True) if j != g]
    assert bad == [], f"golden out of date (word, jar, golden): {bad[:10]}"


@pytest.mark.oracle
@pytest.mark.slow
def test_arabic_table_matches_jar(tmp_path: Path, live_jar: Path) -> None:
    """The jar's own Buckwalter table, on its listed words, variants and unknown words."""
    with zipfile.ZipFile(live_jar) as archive:
        data = archive.read("stem/arabic-buckwalter-reduced.gz")
    table = tmp_path / "arabic-buckwalter-reduced.gz"
    table.write_bytes(data)
    text = gzip.decompress(data).decode("utf-8")
    sample = [line.split(" ", 1)[0] for line in text.splitlines()[::37]]
    variants = [w + "x" for w in sample[:2000]] + [w.upper() for w in sample[:2000]]
    words = sorted({*sample, *variants} - {""})
    words = [w for w in words if not all(c.isdigit() or c in ",.-" for c in w)]
    command = ["java", "-Dfile.encoding=UTF-8", "-cp", str(live_jar), "Stemmer", "ar-bw-red"]
    feed = "".join(w + "\n" for w in words)
    done = subprocess.run(command, input=feed, capture_output=True, encoding="utf-8", check=True)
    jar_stems = done.stdout.split("\n")[: len(words)]
    stem = arabic_table_stemmer(table)
    bad = [(w, stem(w), j) for w, j in zip(words, jar_stems, strict=True) if stem(w) != j]
    assert bad == [], f"{len(bad)} of {len(words)} differ (word, ours, jar): {bad[:10]}"
    assert sum(stem(w) != w for w in words) > len(words) // 10  # the table is really used
