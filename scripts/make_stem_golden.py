"""Record the METEOR 1.5 jar's stems as golden data for ``tests/reference/test_stemmers_vs_jar.py``.

For every language the jar stems with Snowball, a word list is built and stemmed by the jar's own
entry point::

    java -Dfile.encoding=UTF-8 -cp meteor-1.5.jar Stemmer LANG < words > stems

(one word per line; the entry point stems every whitespace-separated token except tokens made only
of digits and ``, . -``, so such tokens are left out of the lists). The jar's ``Stemmer`` class has
no entry for the original Porter algorithm, so a ten-line Java class compiled against the jar calls
``org.tartarus.snowball.ext.porterStemmer`` (``setCurrent``/``stem``/``getCurrent``) instead.

Word lists:

* ``en``: every lemma of the WordNet index files (``index.noun/verb/adj/adv``) as one token,
  underscores kept, plus each underscore-separated part, plus every whitespace token of the xray
  example files, as written and lower-cased.
* other languages: synthetic words (seeded): random syllables from the language's letters followed
  by up to three suffixes taken from the Snowball suffix tables of that language (the vendored
  1.2.1 modules and, when installed, the newest ``snowballstemmer``), some capitalised or in
  upper case; random Cyrillic for Russian; German ``-nis``/``-niss`` forms are added on purpose.

Output (``tests/reference/golden/stemmers/``): ``LANG.tsv.gz``, UTF-8 lines ``word<TAB>stem`` with
an empty cell when the stem equals the word and ``""`` when the stem is empty; ``en.tsv.gz`` has a
third column with the Porter stem.

Usage::

    python scripts/make_stem_golden.py [--jar PATH] [--wordnet DIR] [--xray-dir DIR] [--size N]
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.util
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from _common import official_jar, output_lines

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "reference" / "golden" / "stemmers"
DEFAULT_WORDNET = Path("/usr/share/wordnet")
DEFAULT_XRAY = Path("/work/shared/data/meteor15")

#: Jar language code → vendored module name.
LANGUAGES: dict[str, str] = {
    "en": "english",
    "fr": "french",
    "de": "german",
    "es": "spanish",
    "pt": "portuguese",
    "ru": "russian",
    "da": "danish",
    "ro": "romanian",
    "hu": "hungarian",
    "tr": "turkish",
    "fi": "finnish",
    "nl": "dutch",
    "it": "italian",
    "no": "norwegian",
    "se": "swedish",
}

# Letters used for synthetic stems (suffix letters are added from the Snowball tables).
_LATIN_VOWELS = "aeiouy"
_LATIN_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_CYRILLIC_VOWELS = "аеёиоуыэюя"
_CYRILLIC_CONSONANTS = "бвгджзйклмнпрстфхцчшщьъ"

_JAVA_WHITESPACE = re.compile(r"[ \t\n\r\f]")

PORTER_JAVA = """
import java.io.*;
public class PorterWords {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
    org.tartarus.snowball.ext.porterStemmer s = new org.tartarus.snowball.ext.porterStemmer();
    for (String line; (line = in.readLine()) != null; ) {
      s.setCurrent(line); s.stem(); out.println(s.getCurrent());
    }
    out.flush();
  }
}
"""


def is_jar_number(token: str) -> bool:
    """True for tokens the jar's ``Stemmer`` entry point leaves alone (digits and ``,.-``)."""
    return all(ch.isdigit() or ch in ",.-" for ch in token)


def usable(word: str) -> bool:
    """A word that survives one-word-per-line I/O through the jar unchanged."""
    return (
        bool(word)
        and not is_jar_number(word)
        and not _JAVA_WHITESPACE.search(word)
        and word.isprintable()
        and not any(ch.isspace() for ch in word)
    )


def english_words(wordnet: Path, xray_dir: Path) -> list[str]:
    """WordNet lemmas (whole and split on ``_``) and xray tokens (cased and lower-cased), sorted."""
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if not line or line.startswith(" "):
                continue  # licence header lines start with two spaces
            lemma = line.split(" ", 1)[0]
            words.add(lemma)
            words.update(lemma.split("_"))
    for path in sorted(xray_dir.glob("xray-*")):
        for token in path.read_text(encoding="utf-8").split():
            words.add(token)
            words.add(token.lower())
    return sorted(w for w in words if usable(w))


def suffixes(module_name: str) -> list[str]:
    """All strings of the Snowball ``Among`` tables of a language (vendored and newest upstream)."""
    found: set[str] = set()
    sources = [f"meteor_eval.resources._snowball.v1_2_1.{module_name}_stemmer"]
    sources.append(f"snowballstemmer.{module_name}_stemmer")  # newest upstream, if installed
    for source in sources:
        try:
            module = importlib.import_module(source)
        except ImportError:
            continue
        for cls in vars(module).values():
            if not isinstance(cls, type):
                continue
            for value in vars(cls).values():
                if isinstance(value, list):
                    found.update(getattr(item, "s", "") for item in value)
    return sorted(s for s in found if s)


def synthetic_words(code: str, size: int, seed: int = 2015) -> list[str]:
    """About ``size`` distinct pseudo-words that exercise a language's suffix rules."""
    rng = random.Random(f"{seed}-{code}")
    table = suffixes(LANGUAGES[code])
    if code == "ru":
        vowels, consonants = _CYRILLIC_VOWELS, _CYRILLIC_CONSONANTS
    else:
        vowels, consonants = _LATIN_VOWELS, _LATIN_CONSONANTS
        accented = sorted({ch for s in table for ch in s if not ch.isascii()})
        vowels += "".join(accented)
    extra: list[str] = []
    if code == "de":
        extra = ["Ergebnissen", "Ergebnisse", "Ergebnis", "Ergebnisses", "Kenntnissen",
                 "Verhältnissen", "Zeugnisses", "Geheimnisse", "niss", "nissen"]  # fmt: skip
    elif code == "fi":  # Among entries with a condition ('seen', 'siin', 'den', 'tten')
        extra = ["huoneeseen", "vapaaseen", "maahan", "taloihin", "kaupunkeihin", "perheiden",
                 "tietokoneiden", "naisten", "ihmisten", "puhelimiin", "saariin", "taloisiin",
                 "biviiseen", "umiiden", "nokiiitten"]  # fmt: skip
    words: set[str] = {w for w in extra if usable(w)}
    while len(words) < size:
        base = "".join(
            rng.choice(consonants) * rng.choice((0, 1, 1, 1, 2)) + rng.choice(vowels)
            for _ in range(rng.randint(1, 4))
        )
        if rng.random() < 0.5:
            base += rng.choice(consonants)
        if code == "de" and rng.random() < 0.05:
            base += "niss"
        word = base
        for probability in (0.85, 0.4, 0.1):
            if rng.random() < probability:
                word += rng.choice(table)
        roll = rng.random()
        if roll < 0.1:
            word = word.capitalize()
        elif roll < 0.14:
            word = word.upper()
        elif roll < 0.17:
            cut = rng.randrange(len(word))
            word = word[:cut] + word[cut:].upper()
        if usable(word):
            words.add(word)
    return sorted(words)


def run_jar_stemmer(jar: Path, code: str, words: Sequence[str]) -> list[str]:
    """Stem one word per line with ``java -cp JAR Stemmer CODE``."""
    command = ["java", "-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-cp", str(jar)]
    command += ["Stemmer", code]
    return output_lines(command, words)


def run_jar_porter(jar: Path, words: Sequence[str]) -> list[str]:
    """Stem one word per line with the jar's ``org.tartarus.snowball.ext.porterStemmer``."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "PorterWords.java"
        source.write_text(PORTER_JAVA, encoding="utf-8")
        subprocess.run(["javac", "-cp", str(jar), "-d", tmp, str(source)], check=True)
        return output_lines(["java", "-cp", f"{tmp}:{jar}", "PorterWords"], words)


#: How an empty stem is written (an empty cell means "same as the word").
EMPTY_STEM = '""'


def _cell(word: str, stem: str) -> str:
    if stem == word:
        return ""
    if stem == EMPTY_STEM or "\t" in stem or "\n" in stem:
        raise ValueError(f"stem {stem!r} of {word!r} cannot be written unambiguously")
    return stem or EMPTY_STEM


def write_tsv(path: Path, words: Sequence[str], *columns: Sequence[str]) -> None:
    """``word<TAB>stem...`` lines (gzip, mtime 0).

    A cell is empty when the stem equals the word and holds ``""`` when the stem is empty.
    """
    lines: list[str] = []
    for i, word in enumerate(words):
        cells = [word, *(_cell(word, col[i]) for col in columns)]
        lines.append("\t".join(cells) + "\n")
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(lines).encode("utf-8"))


def read_tsv(path: Path) -> tuple[list[str], list[list[str]]]:
    """Inverse of :func:`write_tsv`: the words and one full stem list per column."""
    words: list[str] = []
    columns: list[list[str]] = []
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    for line in text.split("\n"):
        if not line:
            continue
        word, *stems = line.split("\t")
        if not columns:
            columns = [[] for _ in stems]
        words.append(word)
        for column, stem in zip(columns, stems, strict=True):
            column.append("" if stem == EMPTY_STEM else stem or word)
    return words, columns


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jar", type=Path, default=official_jar())
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_WORDNET)
    parser.add_argument("--xray-dir", type=Path, default=DEFAULT_XRAY)
    parser.add_argument("--size", type=int, default=8000, help="synthetic words per language")
    parser.add_argument("--out", type=Path, default=GOLDEN)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.jar is None or not args.jar.is_file():
        parser.error("meteor-1.5.jar not found; pass --jar")
    sys.path.insert(0, str(ROOT / "src"))
    args.out.mkdir(parents=True, exist_ok=True)
    for code in LANGUAGES:
        started = time.perf_counter()
        if code == "en":
            words = english_words(args.wordnet, args.xray_dir)
            columns = [run_jar_stemmer(args.jar, code, words), run_jar_porter(args.jar, words)]
        else:
            words = synthetic_words(code, args.size)
            columns = [run_jar_stemmer(args.jar, code, words)]
        write_tsv(args.out / f"{code}.tsv.gz", words, *columns)
        changed = sum(s != w for s, w in zip(columns[0], words, strict=True))
        took = time.perf_counter() - started
        print(f"{code}: {len(words)} words, {changed} changed by stemming ({took:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
