"""Build the small parallel corpus and Moses-style phrase table of ``tests/data/parex/``.

Meteor Universal (``Parex``) needs a parallel corpus and a phrase table extracted from it. The
fixture derives both from real text that the project already tests with: the first ``--lines``
segments of METEOR 1.5's X-Ray example (``xray-reference``, ``xray-system1.hyp``,
``xray-system2.hyp``; LGPL data from the METEOR 1.5 distribution). Each system output plays the
"foreign" (pivot) side and the reference the "English" side, so a pivot phrase that two
reference phrases were aligned to makes those two a paraphrase pair, as real pivoting does.

Steps, all deterministic:

1. normalise each segment as the jar's ``-norm`` does and lower-case it (what Meteor Universal's
   ``new_language.py`` feeds to ``Parex``);
2. word-align each system segment with its reference with METEOR 1.5's aligner (exact, stem,
   synonym and paraphrase modules; a phrase match links every word of one span with every word
   of the other);
3. extract every phrase pair of at most :data:`MAX_PHRASE` words a side consistent with the
   word alignment (Koehn, Och and Marcu 2003: no link leaves the box; unaligned words at the
   edges are included);
4. score each pair as Moses does: ``p(f|e) lex(f|e) p(e|f) lex(e|f) 2.718``, phrase
   probabilities by relative frequency, lexical weights (Koehn et al. 2003) from the word
   translation table of the same links, with the first occurrence's alignment;
5. write the table sorted by foreign phrase then English phrase, scores with 6 significant
   digits, gzip with a zero modification time.

Also written: ``score.hyp`` and ``score.ref`` (the first :data:`SCORE_LINES` segments of system
1 and the reference, normalised but not lower-cased: what the tests score with the built
resources), ``filter-ref.txt`` (ten raw reference segments after those of the corpus, for
``FilterParaphrase``), and ``edge-table.gz``, a hand-made table of lines the jar treats
specially (missing fields, unparsable or Java-only numbers, tabs and runs of spaces in phrases,
symbols, common words only), to pin down its line handling.

Run from the repository root (needs the English paraphrase table, ``pip install
".[paraphrase]"``)::

    python scripts/make_parex_fixture.py --data ../shared/data/meteor15 --out tests/data/parex

then ``python scripts/make_parex_golden.py`` to run the jar on the result.
"""

from __future__ import annotations

import argparse
import gzip
import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from meteor_eval.alignments import TextAligner
from meteor_eval.metrics.meteor import MeteorConfig

#: Longest phrase, in words, on either side.
MAX_PHRASE = 3
#: Segments of the scoring fixture.
SCORE_LINES = 60

Links = frozenset[tuple[int, int]]

EDGE_LINES = (
    "le chat ||| the cat ||| 0.5 0.4 0.6 0.3 2.718",
    "le chat ||| a cat ||| 0.25 0.2 0.3 0.1 2.718",
    "un chat ||| a cat ||| 0.5 0.4 0.7 0.3 2.718",
    "un chat ||| the  cat ||| 0.25 0.4 0.2 0.3 2.718",
    "chat ||| cat ||| 1e-1 0.4 5E-1 0.3 2.718",
    "chat ||| the\tcat ||| 0.3d 0.4 0.4f 0.3 2.718",
    "chat ||| cats ||| 0x1p-2 0.4 +0.25 0.3 2.718",
    "chat noir ||| black cat ||| 0.9 0.1 0.9 0.1",
    "chat noir ||| dark cat ||| 0.1 0.1 0.1 0.1",
    "chat noir ||| cat , black ||| 0.5 0.1 0.5 0.1",
    "le ||| the ||| 0.9 0.9 0.9 0.9",
    "missing scores ||| nothing",
    "two scores ||| only ||| 0.5 0.5",
    "bad number ||| cat ||| zero 0.1 0.5 0.1",
    "chat ||| kitty ||| NaN 0.1 0.5 0.1",
    "chat ||| feline ||| 0.5 0.1 Infinity 0.1",
    "chat ||| tiny cat ||| 0.0001 0.1 0.0001 0.1",
    "|||",
    "",
)

EDGE_CORPUS_E = (
    "the cat sat on the mat",
    "a cat is a black cat",
    "the dark cat , black and tiny",
    "cats and kitty and feline only",
)
EDGE_CORPUS_F = (
    "le chat est sur le tapis",
    "un chat est un chat noir",
    "le chat noir",
    "les chats",
)


def read_segments(path: Path, count: int) -> list[str]:
    """The first ``count`` lines of a UTF-8 file."""
    with path.open(encoding="utf-8") as handle:
        return [line.rstrip("\n") for _, line in zip(range(count), handle, strict=False)]


def word_links(
    aligner: TextAligner, hypothesis: str, reference: str
) -> tuple[list[str], list[str], Links]:
    """Tokens of both sides and the (foreign, english) word links of their alignment."""
    alignment = aligner.align(hypothesis, reference)
    links = {
        (match.hyp_start + i, match.ref_start + j)
        for match in alignment.matches
        for i in range(match.hyp_len)
        for j in range(match.ref_len)
    }
    return list(alignment.hyp_tokens), list(alignment.ref_tokens), frozenset(links)


def phrase_pairs(f_len: int, e_len: int, links: Links) -> list[tuple[int, int, int, int, Links]]:
    """Every phrase pair consistent with ``links``: (f start, f end, e start, e end, links)."""
    pairs = []
    for f_start in range(f_len):
        for f_end in range(f_start, min(f_len, f_start + MAX_PHRASE)):
            inside = [(f, e) for f, e in links if f_start <= f <= f_end]
            if not inside:
                continue
            e_lo = min(e for _, e in inside)
            e_hi = max(e for _, e in inside)
            if e_hi - e_lo >= MAX_PHRASE:
                continue
            if any(e_lo <= e <= e_hi and not f_start <= f <= f_end for f, e in links):
                continue
            for e_start in range(e_lo, -1, -1):
                if e_start < e_lo and any(e == e_start for _, e in links):
                    break
                for e_end in range(e_hi, e_len):
                    if e_end > e_hi and any(e == e_end for _, e in links):
                        break
                    if e_end - e_start >= MAX_PHRASE:
                        break
                    box = frozenset(
                        (f - f_start, e - e_start)
                        for f, e in links
                        if f_start <= f <= f_end and e_start <= e <= e_end
                    )
                    pairs.append((f_start, f_end, e_start, e_end, box))
    return pairs


def lexical_weight(
    src: Sequence[str], tgt: Sequence[str], box: Links, table: dict[tuple[str, str], float]
) -> float:
    """Koehn et al.'s lex(tgt|src): per target word, the mean translation probability of its
    links (NULL for an unlinked word), multiplied over the target words."""
    weight = 1.0
    for j, word in enumerate(tgt):
        sources = [src[i] for i, k in box if k == j]
        if not sources:
            weight *= table.get(("NULL", word), 0.0)
        else:
            weight *= sum(table.get((s, word), 0.0) for s in sources) / len(sources)
    return weight


def word_table(
    aligned: list[tuple[list[str], list[str], Links]], *, reverse: bool
) -> dict[tuple[str, str], float]:
    """w(target|source) by relative frequency of links (source = foreign unless ``reverse``)."""
    counts: Counter[tuple[str, str]] = Counter()
    for f_words, e_words, links in aligned:
        src, tgt = (e_words, f_words) if reverse else (f_words, e_words)
        pairs = {(e, f) for f, e in links} if reverse else set(links)
        for i, j in pairs:
            counts[(src[i], tgt[j])] += 1
        linked = {j for _, j in pairs}
        for j, word in enumerate(tgt):
            if j not in linked:
                counts[("NULL", word)] += 1
    totals: Counter[str] = Counter()
    for (s, _), n in counts.items():
        totals[s] += n
    return {(s, t): n / totals[s] for (s, t), n in counts.items()}


def build_table(aligned: list[tuple[list[str], list[str], Links]]) -> list[str]:
    """The phrase table's lines, sorted as Moses sorts them (foreign, then English)."""
    pair_counts: Counter[tuple[str, str]] = Counter()
    first_box: dict[tuple[str, str], Links] = {}
    for f_words, e_words, links in aligned:
        for f0, f1, e0, e1, box in phrase_pairs(len(f_words), len(e_words), links):
            key = (" ".join(f_words[f0 : f1 + 1]), " ".join(e_words[e0 : e1 + 1]))
            pair_counts[key] += 1
            first_box.setdefault(key, box)
    f_totals: Counter[str] = Counter()
    e_totals: Counter[str] = Counter()
    for (f, e), n in pair_counts.items():
        f_totals[f] += n
        e_totals[e] += n
    w_e_given_f = word_table(aligned, reverse=False)
    w_f_given_e = word_table(aligned, reverse=True)
    lines = []
    for f, e in sorted(pair_counts):
        n = pair_counts[(f, e)]
        box = first_box[(f, e)]
        f_words, e_words = f.split(), e.split()
        flipped = frozenset((j, i) for i, j in box)
        scores = (
            n / e_totals[e],
            lexical_weight(e_words, f_words, flipped, w_f_given_e),
            n / f_totals[f],
            lexical_weight(f_words, e_words, box, w_e_given_f),
            2.718,
        )
        lines.append(f"{f} ||| {e} ||| {' '.join(f'{s:.6g}' for s in scores)}")
    return lines


def write_gzip(path: Path, lines: Sequence[str]) -> None:
    """Lines into a gzip file with no name and a zero time stamp (reproducible bytes)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as handle:
        handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def main() -> None:
    """Build the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/meteor15"))
    parser.add_argument("--out", type=Path, default=Path("tests/data/parex"))
    parser.add_argument("--lines", type=int, default=100)
    args = parser.parse_args()
    refs = read_segments(args.data / "xray-reference", args.lines)
    config = MeteorConfig.preset(language="en", normalization="norm")
    aligner = TextAligner(config)
    aligned = []
    for system in ("xray-system1.hyp", "xray-system2.hyp"):
        for hyp, ref in zip(read_segments(args.data / system, args.lines), refs, strict=True):
            aligned.append(word_links(aligner, hyp, ref))
    args.out.mkdir(parents=True, exist_ok=True)
    from meteor_eval.text.normalize import normalize

    hyps = read_segments(args.data / "xray-system1.hyp", SCORE_LINES)
    for name, texts in (("score.hyp", hyps), ("score.ref", refs[:SCORE_LINES])):
        lines = [normalize(text, "en") for text in texts]
        (args.out / name).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    more = read_segments(args.data / "xray-reference", args.lines + 10)[args.lines :]
    (args.out / "filter-ref.txt").write_text("".join(x + "\n" for x in more), encoding="utf-8")
    f_lines = [" ".join(f) for f, _, _ in aligned]
    e_lines = [" ".join(e) for _, e, _ in aligned]
    (args.out / "corpus.f").write_text("".join(x + "\n" for x in f_lines), encoding="utf-8")
    (args.out / "corpus.e").write_text("".join(x + "\n" for x in e_lines), encoding="utf-8")
    table = build_table(aligned)
    write_gzip(args.out / "phrase-table.gz", table)
    write_gzip(args.out / "edge-table.gz", EDGE_LINES)
    (args.out / "edge.f").write_text("".join(x + "\n" for x in EDGE_CORPUS_F), encoding="utf-8")
    (args.out / "edge.e").write_text("".join(x + "\n" for x in EDGE_CORPUS_E), encoding="utf-8")
    sizes = ", ".join(
        f"{p.name} {p.stat().st_size} B" for p in sorted(args.out.iterdir()) if p.is_file()
    )
    print(f"{len(aligned)} segment pairs, {len(table)} phrase pairs; {sizes}")


if __name__ == "__main__":
    main()
