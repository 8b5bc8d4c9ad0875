#!/usr/bin/env python3
"""Golden values of NLTK's METEOR, word tokenizer and Porter stemmer, for tests without NLTK.

Needs NLTK (3.10.4 was used) and Debian's ``wordnet-base``; nothing is downloaded: NLTK's
WordNet corpus folder is laid out by ``scripts/make_nltk_wordnet_dir.py`` in a temporary folder.
Run from the repository root::

    python scripts/make_nltk_golden.py [OUT_DIR]   # default tests/reference/golden/nltk

Writes (see ``README.md`` there): ``xray.json.gz`` (NLTK's ``meteor_score`` on the 2 x 2,489
xray pairs, whitespace tokens), ``generated.json.gz`` (2,000 generated pairs rich in stem and
synonym matches, with the inputs), ``evaluate.json.gz`` (500 single-sentence xray pairs tokenised
by ``NLTKWordTokenizer``, the tokens, sentence scores, 100 two-reference groups, and the means
``np.mean`` gives) and ``porter.json`` (digests of NLTK's Porter stems over a vocabulary).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
XRAY = ROOT.parent / "shared" / "data" / "meteor15"
OUT = ROOT / "tests" / "reference" / "golden" / "nltk"
N_LINES = 2489
SEED = 3_10_4

FUNCTION_WORDS = (
    "the a an of to and in is that for it as with was on be by at this are from or which not "
    "but have has had were will would can could there their they he she his her its we our you"
).split()

# A line holds one sentence when no ., ! or ? (closing quotes/brackets allowed) is followed by
# whitespace and another word.
_INNER_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+\S")


def xray_lines(name: str) -> list[str]:
    """The 2,489 segments of one xray file (raw text)."""
    return (XRAY / name).read_text(encoding="utf-8").split("\n")[:N_LINES]


def single_sentence(text: str) -> bool:
    """Whether ``text`` holds one sentence (no inner sentence boundary)."""
    return _INNER_BOUNDARY.search(text.strip()) is None


def porter_vocabulary_wordnet() -> list[str]:
    """Every WordNet lemma (``_`` kept), its ``_``/``-`` parts, and every 7th capitalised."""
    sys.path.insert(0, str(ROOT / "src"))
    from meteor_eval.resources.wordnet import meteor_wordnet

    words: set[str] = set()
    for lemma in meteor_wordnet().words():
        words.add(lemma)
        words.update(part for part in re.split(r"[_-]", lemma) if part)
    words.update([w.capitalize() for w in sorted(words)[::7]])
    return sorted(words)


def porter_vocabulary_xray(tokenize: Callable[[str], list[str]]) -> list[str]:
    """Whitespace tokens (as written, lower-cased) and word-tokenizer tokens of the xray files."""
    words: set[str] = set()
    for name in ("xray-reference", "xray-system1.hyp", "xray-system2.hyp"):
        for line in xray_lines(name):
            for token in line.split():
                words.update((token, token.lower()))
            words.update(tokenize(line))
    return sorted(words)


def stem_digest(words: Iterable[str], stem: Callable[[str], str]) -> str:
    """SHA-256 of the lines ``word<TAB>stem\\n``."""
    digest = hashlib.sha256()
    for word in words:
        digest.update(f"{word}\t{stem(word)}\n".encode())
    return digest.hexdigest()


def generated_pairs(n: int = 2000, seed: int = SEED) -> list[dict[str, object]]:
    """Pairs whose hypotheses inflect, replace by WordNet synonyms, drop, add and move words."""
    sys.path.insert(0, str(ROOT / "src"))
    from meteor_eval.resources.wordnet import meteor_wordnet, nltk_wordnet

    rng = random.Random(seed)
    vocabulary = sorted(w for w in meteor_wordnet().words() if w.isalpha() and len(w) > 2)
    common = vocabulary[::40]
    wordnet = nltk_wordnet()

    def synonym(word: str) -> str:
        names = sorted(n for n in wordnet.lemma_names(word) if "_" not in n and n != word)
        return rng.choice(names) if names else word

    def inflect(word: str) -> str:
        return word + rng.choice(("s", "es", "ed", "ing", "ly", "er", "ness", "ation", "ful"))

    def case(word: str) -> str:
        roll = rng.random()
        return word.upper() if roll < 0.03 else word.capitalize() if roll < 0.12 else word

    def reference() -> list[str]:
        length = rng.choice((0, 1, 2, 3)) if rng.random() < 0.04 else rng.randint(4, 22)
        pool = [rng.choice(common) for _ in range(max(3, length // 2))]
        return [
            rng.choice(FUNCTION_WORDS) if rng.random() < 0.3 else rng.choice(pool)
            for _ in range(length)
        ]

    pairs: list[dict[str, object]] = []
    for _ in range(n):
        refs = [reference() for _ in range(rng.choice((1, 1, 1, 1, 2, 3)))]
        hyp: list[str] = []
        for word in refs[0]:
            roll = rng.random()
            if roll < 0.35:
                hyp.append(word)
            elif roll < 0.55:
                hyp.append(inflect(word))
            elif roll < 0.75:
                hyp.append(synonym(word))
            elif roll < 0.85:
                hyp.append(rng.choice(common))
            elif roll < 0.95:
                continue
            else:
                hyp.extend((word, word))
        for k in range(len(hyp) - 1):
            if rng.random() < 0.15:
                hyp[k], hyp[k + 1] = hyp[k + 1], hyp[k]
        if rng.random() < 0.03:
            hyp = []
        pairs.append(
            {
                "hypothesis": [case(w) for w in hyp],
                "references": [[case(w) for w in ref] for ref in refs],
            }
        )
    return pairs


def main(out: Path) -> None:
    import nltk
    import numpy as np

    sys.path.insert(0, str(ROOT / "scripts"))
    from make_nltk_wordnet_dir import make_nltk_wordnet_dir

    with tempfile.TemporaryDirectory() as tmp:
        nltk.data.path.insert(0, str(make_nltk_wordnet_dir(Path(tmp))))
        from nltk.corpus import wordnet
        from nltk.stem.porter import PorterStemmer
        from nltk.tokenize import NLTKWordTokenizer
        from nltk.translate.meteor_score import meteor_score

        wordnet.ensure_loaded()
        out.mkdir(parents=True, exist_ok=True)
        version = nltk.__version__
        reference = xray_lines("xray-reference")

        xray: dict[str, object] = {"nltk": version}
        for system in ("system1", "system2"):
            hyps = xray_lines(f"xray-{system}.hyp")
            xray[system] = [
                meteor_score([r.split()], h.split()) for h, r in zip(hyps, reference, strict=True)
            ]
        _write_json_gz(out / "xray.json.gz", xray)

        pairs = generated_pairs()
        for pair in pairs:
            pair["score"] = meteor_score(pair["references"], pair["hypothesis"])  # type: ignore[arg-type]
        _write_json_gz(out / "generated.json.gz", {"nltk": version, "seed": SEED, "pairs": pairs})

        tokenizer = NLTKWordTokenizer()
        system2 = xray_lines("xray-system2.hyp")
        items: list[dict[str, object]] = []
        for system in ("system1", "system2"):
            hyps = xray_lines(f"xray-{system}.hyp")
            chosen = [
                k
                for k in range(N_LINES)
                if single_sentence(hyps[k]) and single_sentence(reference[k]) and hyps[k].strip()
            ][:250]
            for k in chosen:
                h_tok = tokenizer.tokenize(hyps[k])
                r_tok = tokenizer.tokenize(reference[k])
                items.append(
                    {
                        "line": k,
                        "system": system,
                        "prediction": hyps[k],
                        "reference": reference[k],
                        "prediction_tokens": h_tok,
                        "reference_tokens": r_tok,
                        "score": meteor_score([r_tok], h_tok),
                    }
                )
        multi: list[dict[str, object]] = []
        for item in items[:250]:
            k = int(item["line"])  # type: ignore[call-overload]
            if len(multi) < 100 and single_sentence(system2[k]):
                refs = [str(item["reference"]), system2[k]]
                multi.append(
                    {
                        "prediction": item["prediction"],
                        "references": refs,
                        "score": meteor_score(
                            [tokenizer.tokenize(r) for r in refs],
                            tokenizer.tokenize(str(item["prediction"])),
                        ),
                    }
                )
        evaluate = {
            "nltk": version,
            "numpy": np.__version__,
            "pairs": items,
            "mean": float(np.mean([item["score"] for item in items])),
            "multi": multi,
            "multi_mean": float(np.mean([item["score"] for item in multi])),
        }
        _write_json_gz(out / "evaluate.json.gz", evaluate)

        stemmer = PorterStemmer()
        wordnet_words = porter_vocabulary_wordnet()
        xray_words = porter_vocabulary_xray(tokenizer.tokenize)
        porter = {
            "nltk": version,
            "wordnet_words": len(wordnet_words),
            "wordnet_sha256": stem_digest(wordnet_words, stemmer.stem),
            "xray_words": len(xray_words),
            "xray_sha256": stem_digest(xray_words, stemmer.stem),
        }
        (out / "porter.json").write_text(json.dumps(porter, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


def _write_json_gz(path: Path, data: object) -> None:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
