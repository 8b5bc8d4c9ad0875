"""Record the METEOR 1.5 jar's preprocessing of adversarial lines as golden test data.

The jar has no "normalise only" entry point on its command line, but with ``-writeAlignments``
it prints every hypothesis and reference *after* preprocessing (normalisation, lower-casing and
tokenisation; tokens joined by one space, the line trimmed). Scoring a file against itself with
the cheap exact matcher therefore reveals the preprocessing of each line.

For every configuration in :data:`CONFIGS` this script runs::

    java -Xmx2G -jar meteor-1.5.jar INPUT INPUT -l LANG -m exact [FLAGS] \\
        -writeAlignments -f PREFIX

where ``INPUT`` is ``tests/reference/golden/normalize/inputs.txt`` decompressed (one line per
segment, UTF-8, ``\\n`` line ends) and ``FLAGS`` is ``-norm``, ``-norm -noPunct``, ``-lower`` or
nothing. It writes the hypothesis lines of ``PREFIX-align.out`` to
``tests/reference/golden/normalize/<config>.txt.gz`` and checks that each reference line equals
its hypothesis line.

Usage::

    python scripts/make_normalize_golden.py [--jar PATH] [--regenerate-inputs]

Golden files were produced with ``meteor-1.5.jar`` from the PyPI package ``pycocoevalcap``
1.2 on OpenJDK 17.0.15 (default English locale).
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import official_jar

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "reference" / "golden" / "normalize"
INPUTS = GOLDEN_DIR / "inputs.txt.gz"
XRAY_DIR = Path("/work/shared/data/meteor15")

#: name -> (language code, extra jar flags)
CONFIGS: dict[str, tuple[str, tuple[str, ...]]] = {
    f"{lang}-{level}": (lang, flags)
    for lang in ("en", "fr", "de", "es", "cz", "ru")
    for level, flags in (("norm", ("-norm",)), ("norm_nopunct", ("-norm", "-noPunct")))
}
CONFIGS["en-lower"] = ("en", ("-lower",))
CONFIGS["en-none"] = ("en", ())


# --- Building the adversarial inputs ---------------------------------------------------------

_WORDS = [
    "the",
    "The",
    "THE",
    "cat",
    "don't",
    "John's",
    "1990's",
    "l'homme",
    "d'affaires",
    "aujourd'hui",
    "rock",
    "'n'",
    "n't",
    "'s",
    "it's",
    "O'Neil",
    "ma'am",
    "y'all",
    "'90s",
    "Café",
    "Über",
    "naïve",
    "Straße",
    "Ærø",
    "œuvre",
    "ÿ",
    "Ÿes",
    "Škoda",
    "Žižek",
    "žluťoučký",
    "ſ",
    "ƒ",
    "ș",
    "Ș",
    "ț",
    "×",
    "÷",
    "ᴀbc",
    "ꙮ",
    "ꙭ",
    "\ua66f",
    "\u0528",
    "\u0527",
    "ꚗ",
    "\ua698",
    "Привет",
    "мир",
    "ЁЛКА",
    "Ѐ",
    "ӿ",
    "Москва",
    "т.е.",
    "г.",
    "т.д.",
    "Καλημέρα",
    "ΟΔΟΣ",
    "ΣΟΦΙΑ",
    "Σ",
    "ΑΣ:Α",
    "ΑΣ·Α",
    "ΑΣ’Α",
    "ΑΣ'Α",
    "ΑΣ.Α",
    "ΑΣ-Α",
    "ΑΣ1",
    "Σʰ",
    "Α\u0301Σ",
    "ΑΣ\u0301",
    "ΑΣ\u00adΑ",
    "İstanbul",
    "İ",
    "I",
    "ı",
    "ǅ",
    "ǈ",
    "Ⅻ",
    "Ⓐ",
    "\u2c2f",
    "\ua7c0",
    "\U00010570",
    "\U00010595",
    "日本語",
    "のテキスト",
    "中文",
    "한국어",
    "العربية",
    "שלום",
    "हिन्दी",
    "।",
    "😀",
    "👍🏽",
    "🇫🇷",
    "𝐀",
    "e\u0301",
    "\u200b",
    "\ufeff",
    "\u00ad",
    "\u2027",
    "DOTMULTI",
    "DOTDOTMULTI",
    "DOTMULTI.",
    "xDOTMULTIx",
    "U.S.",
    "U.S",
    "e.g.",
    "i.e.",
    "p.m.",
    "a.m.",
    "Ph.D.",
    "etc.",
    "Inc.",
    "Mr.",
    "Mrs.",
    "Dr.",
    "Prof.",
    "No.",
    "Art.",
    "pp.",
    "Nr.",
    "St.",
    "vs.",
    "A.",
    "I.",
    "x.",
    "1.",
    "3.14.",
    "end.",
    "M.",
    "Jan.",
    "Fig.",
    "Abs.",
    "Nos.",
    "z.B.",
    "bzw.",
    "Mio.",
    "Mme.",
    "M.",
    "av.",
    "Sra.",
    "Sr.",
    "Ud.",
    "str.",
    "ул.",
    "тыс.",
    "руб.",
    "стр.",
    "1,000",
    "1,000,000",
    "1,000.50",
    "3.14",
    "5%",
    "$5.50",
    "€10",
    "10–20",
    "10-20",
    "-5",
    "x-",
    "-",
    "--",
    "---",
    "—",
    "–",
    "a-b-c",
    "well-known-fact",
    "state-of-the-art",
    "U.S.-based",
    "e-mail",
    "x--y",
    "a.-b",
    "1-a",
    "a,b,c",
    "1,a",
    "a,1",
    ",",
    ",,",
    "1,",
    ",1",
    ".",
    "..",
    "...",
    "....",
    ".....",
    "…",
    "wait...what",
    "a..b",
    "a.b.c",
    "1.2.3.",
    "'",
    "''",
    "'''",
    "`",
    "``",
    "‘",
    "’",
    "“",
    "”",
    "‘quoted’",
    "“quoted”",
    "``x''",
    '"',
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "?",
    "!",
    ";",
    ":",
    "/",
    "\\",
    "|",
    "|||",
    "_",
    "#",
    "&",
    "*",
    "+",
    "=",
    "<",
    ">",
    "@",
    "^",
    "~",
    "§",
    "°",
    "©",
    "½",
    "²",
    "٣",
    "٫",
    "¿",
    "¡",
    "«",
    "»",
    "‹",
    "›",
    "„",
    "‚",
    "•",
    "·",
    "′",
    "″",
    "\x01",
    "\x7f",
    "\x85",
    "\u2028",
    "\u2029",
    "\ufffd",
    "qu'il",
    "c'est",
    "j'ai",
    "s'il",
    "l'",
    "'l",
    "Don't",
    "DON'T",
    "can't",
    "o'clock",
    "rock'n'roll",
    "1's",
    "x's",
    "s'",
]
_SEPARATORS = [
    " ",
    " ",
    " ",
    " ",
    "  ",
    "",
    "",
    "\t",
    "\x0b",
    "\f",
    "\x1c",
    "\x1f",
    "\u00a0",
    "\u2000",
    "\u2002",
    "\u2009",
    "\u200a",
    "\u202f",
    "\u205f",
    "\u3000",
    "\u1680",
    "\u180e",
    " \u00a0 ",
    "\u200b",
    "\x00",
]
_HANDMADE = [
    "a,b,c and 1,000,000 or 1,a",
    "well-known-fact state-of-the-art x--y",
    "Mr. Smith met Dr. Who at 5 p.m. today.",
    "He said: \"It's John's 1990's car.\" (really?)",
    "No. 5 and No. 5. No. x",
    "e.g. U.S.-based i.e. etc.",
    "wait...what.... ok..",
    "Inc. reported",
    "Ph.D. student",
    "rock 'n' roll ''quoted'' ``x''",
    "price: $5.50 (5%) @home #1 a/b x_y",
    "end.",
    "A.",
    "I. am",
    "U.S",
    "l'homme d'affaires aujourd'hui",
    "Don't stop",
    "He said: \"It's John's car.\" (really?)",
    "",
    "   \t  ",
    ". , !",
    "...",
    "the cat .",
    "The Cat Sat",
    "Aa",
    "x AaAa y",
    "1,000.50 dollars",
    "in 2019, 3.14%",
    "don't",
    "do n't",
    "Mr. Smith went to Washington.",
    "the U.S. economy",
    "wait... what",
    "DOTMULTI",
    "日本語のテキスト",
    "Καλημέρα κόσμε",
    "I love it😀",
    "Café Über naïve",
    "“Hello” ‘world’",
    "yes—no",
    "pages 10–20",
    "a ||| b",
    "the\tcat",
    "the\u00a0cat",
    "the\u000bcat",
    "  the cat  ",
    "John's car",
    "john 's car",
    "the 1990's",
    "the 1990 's",
    "\ufeffthe cat sat",
    "x..",
    ".. x",
    "a ..",
    "a. .",
    "..a..b..",
    "a....b.....c......d",
    "DOTMULTI. DOTMULTI.. DOTDOTMULTI.",
    "No. No. No.",
    "No.5",
    "Art. 5",
    "Art. x",
    "pp. 10-20",
    "Mr.",
    "mr.",
    "MR.",
    "U.S.A. is big.",
    "i.e., e.g., etc.,",
    "p.m.. a.m...",
    "3.14. 2.5.",
    "x. y. Z.",
    "The end. The End",
    "M. Dupont est là.",
    "Dr. med. Müller, z.B. heute.",
    "т.е. мы пошли в г. Москва.",
    "Sr. García y Sra. López.",
    "'s 's 's",
    "'tis",
    "''''",
    "'''a'''",
    "a''b",
    "a'''b",
    "1'2'3",
    "a'1",
    "1'a",
    "'a'",
    "a'",
    "'",
    "ΟΔΟΣ ΣΟΦΙΑΣ ΑΣ:Α ΑΣ·Α ΑΣ’Α Σʰ ΑΣ\u0301",
]


def build_inputs(seed: int = 20240611) -> list[str]:
    """Hand-made lines, 600 xray lines and seeded random combinations of tricky fragments."""
    rng = random.Random(seed)
    lines = list(_HANDMADE)
    for name in ("xray-reference", "xray-system1.hyp", "xray-system2.hyp"):
        path = XRAY_DIR / name
        if path.is_file():
            xray = path.read_bytes().decode("utf-8").split("\n")
            lines.extend(rng.sample([line for line in xray if line], 200))
    while len(lines) < 3500:
        count = rng.randint(1, 12)
        parts: list[str] = []
        for _ in range(count):
            parts.append(rng.choice(_WORDS))
            parts.append(rng.choice(_SEPARATORS))
        line = "".join(parts)
        if rng.random() < 0.3:
            line = " " + line
        lines.append(line)
    # The jar reads lines with BufferedReader.readLine: no CR or LF inside a line.
    return [line.replace("\r", " ").replace("\n", " ") for line in lines]


def read_lines(path: Path) -> list[str]:
    """Lines of a gzip UTF-8 file split on ``\\n`` only (other separators stay in the line)."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def write_lines(path: Path, lines: list[str]) -> None:
    """Write lines as gzip UTF-8 with ``\\n`` line ends, reproducibly (mtime 0)."""
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


# --- Running the jar --------------------------------------------------------------------------


def jar_preprocess(jar: Path, lines: list[str], language: str, flags: tuple[str, ...]) -> list[str]:
    """Preprocessed lines as printed by the jar (tokens joined by one space)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "input.txt"
        source.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
        prefix = Path(tmp) / "out"
        command = [
            "java", "-Xmx2G", "-jar", str(jar), str(source), str(source),
            "-l", language, "-m", "exact", *flags, "-writeAlignments", "-f", str(prefix),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)
        text = (Path(tmp) / "out-align.out").read_bytes().decode("utf-8")
    rows = text.split("\n")
    hyps: list[str] = []
    for index, row in enumerate(rows):
        if row.startswith("Alignment\t"):
            hyp, ref = rows[index + 1], rows[index + 2]
            if hyp != ref:
                raise RuntimeError(f"jar preprocessed the same line differently: {hyp!r} {ref!r}")
            hyps.append(hyp)
    if len(hyps) != len(lines):
        raise RuntimeError(f"expected {len(lines)} alignments, got {len(hyps)}")
    return hyps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jar", type=Path, default=official_jar())
    parser.add_argument("--regenerate-inputs", action="store_true")
    args = parser.parse_args(argv)
    if args.jar is None or not args.jar.is_file():
        print("meteor-1.5.jar not found; pass --jar", file=sys.stderr)
        return 1
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    if args.regenerate_inputs or not INPUTS.is_file():
        write_lines(INPUTS, build_inputs())
    lines = read_lines(INPUTS)
    for name, (language, flags) in CONFIGS.items():
        outputs = jar_preprocess(args.jar, lines, language, flags)
        write_lines(GOLDEN_DIR / f"{name}.txt.gz", outputs)
        print(f"{name}: {len(outputs)} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
