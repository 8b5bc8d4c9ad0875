"""Golden statistics of the METEOR 1.5 jar's ``-stdio`` mode on deliberately ambiguous pairs.

Usage: python scripts/make_stdio_differential.py [--jar PATH] [--seed N] [--table PATH]

Generates (deterministically, from ``--seed``) a few thousand hypothesis/reference sets designed
to make the matcher and the beam search work hard: tiny vocabularies with heavy repetition,
inflections, WordNet synonyms, multiword phrases drawn from the English paraphrase table and
inserted in both directions, shuffles, empty sides, several references, capitalisation and
punctuation. The spec's edge cases E1-E45 (section 8 of ../shared/spec/meteor-1.5.md, parsed as
``scripts/make_edge_golden.py`` does) are added as a second set.

Each configuration is one jar process in stdio mode that reads every ``SCORE`` line at once::

    java -Xmx2G -jar meteor-1.5.jar - - -stdio -l en -norm -x B     (B = 1, 3, 40)
    java -Xmx2G -jar meteor-1.5.jar - - -stdio -l en -x 40          (no normalisation)

(``-x 40`` is the default beam; all four English modules run.) A line is
``SCORE ||| ref_1 ||| ... ||| ref_n ||| hyp``; the jar answers with one 23-number line.

Writes ``tests/reference/golden/stdio/{generated,edge}.json.gz`` (inputs and the jar's lines per
configuration) and the README beside them. The jar is the one shipped in PyPI pycocoevalcap 1.2
(with its ``data/paraphrase-en.gz``), run on OpenJDK 17.0.15.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _common import official_jar_or_exit, output_lines
from make_edge_golden import SPEC, parse_cases

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "reference" / "golden" / "stdio"
SEED = 20240615
#: Every k-th record of the paraphrase table is a phrase source (about 2,000 records).
RECORD_STEP = 2659

#: name -> (jar options after ``-stdio``, our normalisation, beam)
CONFIGS: dict[str, tuple[list[str], str, int]] = {
    "norm-x1": (["-l", "en", "-norm", "-x", "1"], "norm", 1),
    "norm-x3": (["-l", "en", "-norm", "-x", "3"], "norm", 3),
    "norm-x40": (["-l", "en", "-norm", "-x", "40"], "norm", 40),
    "none-x40": (["-l", "en", "-x", "40"], "none", 40),
}

TINY = ["the", "a", "cat", "cats", "dog", "sat", "on", "mat", "and", "of", "is", "it"]
INFLECTIONS = [
    ("cat", "cats"),
    ("dog", "dogs"),
    ("run", "runs", "running", "ran"),
    ("go", "goes", "going", "went", "gone"),
    ("walk", "walks", "walked", "walking"),
    ("child", "children"),
    ("mouse", "mice"),
    ("box", "boxes"),
    ("city", "cities"),
    ("big", "bigger", "biggest"),
    ("make", "makes", "made", "making"),
    ("study", "studies", "studied", "studying"),
    ("house", "houses", "housing", "housed"),
    ("write", "writes", "wrote", "written", "writing"),
    ("happy", "happier", "happily", "happiness"),
    ("man", "men"),
    ("leaf", "leaves"),
    ("try", "tries", "tried"),
    ("nation", "national", "nations", "nationally"),
    ("decide", "decided", "decision", "decisions"),
]
SYNONYMS = [
    ("big", "large", "great", "bigger", "larger"),
    ("house", "home", "houses", "homes", "household"),
    ("car", "automobile", "auto", "cars", "machine"),
    ("begin", "start", "commence", "began", "started"),
    ("buy", "purchase", "bought", "purchased"),
    ("small", "little", "minor", "smaller"),
    ("quick", "fast", "speedy", "rapid"),
    ("happy", "glad", "felicitous"),
    ("end", "finish", "stop", "terminate", "ended"),
    ("sick", "ill", "sickness", "illness"),
    ("kid", "child", "kids", "children"),
    ("talk", "speak", "talking", "speaking", "spoke"),
    ("shut", "close", "closed"),
    ("mr.", "mr", "mister"),
    ("film", "movie", "picture", "films"),
    ("street", "road", "route"),
    ("help", "aid", "assist", "helped"),
    ("smart", "bright", "clever"),
    ("error", "mistake", "errors", "mistakes"),
    ("rich", "wealthy", "affluent"),
    ("die", "died", "pass", "passed", "away"),
]
#: Frequent phrases with many paraphrases: dense, overlapping phrase candidates.
HUBS = [
    "it is",
    "there is",
    "a lot of",
    "said",
    "in order to",
    "at the same time",
    "more than",
    "died",
    "passed away",
    "we must",
    "i think that",
    "the european union",
    "important",
    "must",
    "should",
    "need",
    "people",
    "country",
    "president",
    "make",
    "take",
    "very",
    "believe",
    "problem",
    "economic",
    "clear",
]
HUB_LIMIT = 40
PUNCT = [".", ",", "!", "?", ";", ":", "'s", "n't", "...", "-", "(", ")", '"', "'", "%"]
NOISE_WORDS = ["well-known", "state-of-the-art", "U.S.", "don't", "John's", "1,000.50", "3.14%"]


def sample_records(table: Path, step: int) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """Every ``step``-th (phrase A, phrase B) record of the table, in file order (one pass).

    Also returns, for each phrase of ``HUBS``, its first ``HUB_LIMIT`` paraphrases in file order.
    """
    records: list[tuple[str, str]] = []
    hubs: dict[str, list[str]] = {h: [] for h in HUBS}
    with gzip.open(table, "rt", encoding="utf-8") as handle:
        n = 0
        while True:
            prob = handle.readline()
            if not prob:
                break
            a = handle.readline().rstrip("\n")
            b = handle.readline().rstrip("\n")
            if n % step == 0:
                records.append((a, b))
            found = hubs.get(a)
            if found is not None and len(found) < HUB_LIMIT:
                found.append(b)
            n += 1
    return records, hubs


class Generator:
    """Builds the pairs; all randomness comes from one seeded ``random.Random``."""

    def __init__(
        self, seed: int, records: list[tuple[str, str]], hubs: dict[str, list[str]]
    ) -> None:
        self.rng = random.Random(seed)
        self.records = records
        self.hubs = [(a, bs) for a, bs in hubs.items() if bs]
        self.multi = [r for r in records if " " in r[0] or " " in r[1]]
        self.phrase_words = sorted({w for a, b in records for w in (a + " " + b).split()})

    # -- building blocks -------------------------------------------------------------------

    def filler(self, n: int, vocab: list[str] | None = None) -> list[str]:
        vocab = vocab or TINY
        return [self.rng.choice(vocab) for _ in range(n)]

    def forms(self, groups: list[tuple[str, ...]], k: int) -> list[tuple[str, ...]]:
        return [self.rng.choice(groups) for _ in range(k)]

    def insert(self, words: list[str], phrase: str) -> list[str]:
        at = self.rng.randint(0, len(words))
        return words[:at] + phrase.split() + words[at:]

    def record(self) -> tuple[str, str]:
        source = self.multi if self.rng.random() < 0.8 else self.records
        a, b = self.rng.choice(source)
        return (a, b) if self.rng.random() < 0.5 else (b, a)

    # -- kinds -----------------------------------------------------------------------------

    def tiny(self) -> tuple[list[str], str]:
        vocab = self.rng.sample(TINY, self.rng.randint(1, 4))
        ref = self.filler(self.rng.randint(1, 12), vocab)
        hyp = self.filler(self.rng.randint(1, 12), vocab)
        return [" ".join(ref)], " ".join(hyp)

    def _grouped(self, groups: list[tuple[str, ...]]) -> tuple[list[str], str]:
        chosen = self.forms(groups, self.rng.randint(1, 4))
        ref: list[str] = []
        hyp: list[str] = []
        for group in chosen:
            for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
                ref.append(self.rng.choice(group))
            for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
                hyp.append(self.rng.choice(group))
        ref += self.filler(self.rng.randint(0, 4))
        hyp += self.filler(self.rng.randint(0, 4))
        if self.rng.random() < 0.5:
            self.rng.shuffle(hyp)
        if self.rng.random() < 0.3:
            self.rng.shuffle(ref)
        return [" ".join(ref)], " ".join(hyp)

    def inflect(self) -> tuple[list[str], str]:
        return self._grouped(INFLECTIONS)

    def synonym(self) -> tuple[list[str], str]:
        return self._grouped(SYNONYMS + INFLECTIONS[:4])

    def paraphrase(self) -> tuple[list[str], str]:
        ref = self.filler(self.rng.randint(0, 5))
        hyp = self.filler(self.rng.randint(0, 5))
        for _ in range(self.rng.randint(1, 3)):
            a, b = self.record()
            ref = self.insert(ref, a)
            hyp = self.insert(hyp, b)
            roll = self.rng.random()
            if roll < 0.15:  # the same phrase on both sides too
                hyp = self.insert(hyp, a)
            elif roll < 0.3:  # a repeated phrase
                hyp = self.insert(hyp, b)
            elif roll < 0.4:  # a truncated phrase: overlapping partial matches
                words = a.split()
                if len(words) > 1:
                    ref = self.insert(ref, " ".join(words[1:]))
        if self.rng.random() < 0.3:
            hyp = self.insert(hyp, " ".join(self.filler(2, self.phrase_words)))
        return [" ".join(ref)], " ".join(hyp)

    def dense(self) -> tuple[list[str], str]:
        ref = self.filler(self.rng.randint(0, 3))
        hyp = self.filler(self.rng.randint(0, 3))
        for _ in range(self.rng.randint(2, 4)):
            a, bs = self.rng.choice(self.hubs)
            b = self.rng.choice(bs)
            first, second = (ref, hyp) if self.rng.random() < 0.5 else (hyp, ref)
            first[:] = self.insert(first, a)
            second[:] = self.insert(second, b)
            if self.rng.random() < 0.5:  # another paraphrase of the same phrase
                second[:] = self.insert(second, self.rng.choice(bs))
            if self.rng.random() < 0.3:
                first[:] = self.insert(first, self.rng.choice(bs))
        return [" ".join(ref)], " ".join(hyp)

    def mixed(self) -> tuple[list[str], str]:
        kind = self.rng.choice([self.tiny, self.inflect, self.synonym, self.paraphrase, self.dense])
        refs, hyp = kind()
        return refs, hyp

    def shuffle(self) -> tuple[list[str], str]:
        refs, _ = self.mixed()
        words = refs[0].split()
        hyp = list(words)
        self.rng.shuffle(hyp)
        for _ in range(self.rng.randint(0, 2)):
            if hyp:
                hyp[self.rng.randrange(len(hyp))] = self.rng.choice(TINY + self.phrase_words)
        if self.rng.random() < 0.3:  # a few adjacent swaps only
            hyp = list(words)
            for _ in range(self.rng.randint(1, 3)):
                if len(hyp) > 1:
                    i = self.rng.randrange(len(hyp) - 1)
                    hyp[i], hyp[i + 1] = hyp[i + 1], hyp[i]
        return refs, " ".join(hyp)

    def multiref(self) -> tuple[list[str], str]:
        refs, hyp = self.mixed()
        for _ in range(self.rng.randint(1, 3)):
            roll = self.rng.random()
            if roll < 0.15:
                refs.append(refs[0])  # a duplicate reference: the first one must win
            elif roll < 0.25:
                refs.append("")
            elif roll < 0.35:
                refs.append(hyp)
            else:
                refs.append(self.mixed()[0][0])
        self.rng.shuffle(refs)
        return refs, hyp

    def casepunct(self) -> tuple[list[str], str]:
        refs, hyp = self.mixed()
        return [self.decorate(r) for r in refs], self.decorate(hyp)

    def decorate(self, text: str) -> str:
        words = text.split()
        out: list[str] = []
        for w in words:
            roll = self.rng.random()
            if roll < 0.1:
                w = w.upper()
            elif roll < 0.25:
                w = w.capitalize()
            if self.rng.random() < 0.12:
                p = self.rng.choice(PUNCT)
                w = w + p if self.rng.random() < 0.6 else p + w
            out.append(w)
            if self.rng.random() < 0.05:
                out.append(self.rng.choice(NOISE_WORDS))
        if out and self.rng.random() < 0.5:
            out[0] = out[0][:1].upper() + out[0][1:]
            out[-1] += self.rng.choice([".", "!", "?", " .", ""])
        sep = self.rng.choice([" ", " ", " ", "  ", "\t"])
        return sep.join(out)

    def empty(self) -> tuple[list[str], str]:
        refs, hyp = self.mixed()
        roll = self.rng.random()
        if roll < 0.35:
            hyp = self.rng.choice(["", " ", "\t", " . "])
        elif roll < 0.7:
            refs = [self.rng.choice(["", "  "])]
        elif roll < 0.85:
            refs, hyp = [""], ""
        else:
            refs = ["", *refs, ""]
        return refs, hyp

    def identical(self) -> tuple[list[str], str]:
        refs, _ = self.mixed()
        hyp = refs[0]
        if self.rng.random() < 0.5:
            hyp = hyp.upper() if self.rng.random() < 0.5 else hyp.title()
        return refs, hyp

    def long(self) -> tuple[list[str], str]:
        ref: list[str] = []
        hyp: list[str] = []
        while len(ref) < 25:
            r, h = self.mixed()
            ref += r[0].split()
            hyp += h.split()
        return [" ".join(ref)], " ".join(hyp)


#: kind -> number of pairs
PLAN = {
    "tiny": 500,
    "inflect": 400,
    "synonym": 450,
    "paraphrase": 900,
    "dense": 500,
    "shuffle": 300,
    "multiref": 350,
    "casepunct": 350,
    "empty": 120,
    "identical": 100,
    "long": 80,
}


def generate(
    seed: int, records: list[tuple[str, str]], hubs: dict[str, list[str]]
) -> list[dict[str, Any]]:
    gen = Generator(seed, records, hubs)
    pairs: list[dict[str, Any]] = []
    for kind, count in PLAN.items():
        make = getattr(gen, kind)
        for _ in range(count):
            refs, hyp = make()
            pairs.append({"kind": kind, "refs": refs, "hyp": hyp})
    for n, pair in enumerate(pairs):
        pair["id"] = n
        for text in [*pair["refs"], pair["hyp"]]:
            if "|||" in text or "\n" in text or "\r" in text:
                raise ValueError(f"pair {n}: text cannot be sent on a SCORE line: {text!r}")
    return pairs


def score_line(refs: list[str], hyp: str) -> str:
    """The stdio command; a space before and after every field keeps empty fields present."""
    return "SCORE ||| " + " ||| ".join([*refs, hyp]) + " "


def run_jar(jar: Path, options: list[str], lines: list[str]) -> list[str]:
    cmd = ["java", "-Xmx2G", "-jar", str(jar), "-", "-", "-stdio", *options]
    start = time.perf_counter()
    answers = output_lines(cmd, lines)
    for n, answer in enumerate(answers):
        if len(answer.split(" ")) != 23:
            raise RuntimeError(f"line {n}: unexpected answer {answer!r}")
    print(f"  {' '.join(options)}: {len(lines)} lines in {time.perf_counter() - start:.1f} s")
    return answers


def spec_norm_rows() -> dict[str, str]:
    """The spec table's ``-norm`` statistics column, by case id."""
    rows: dict[str, str] = {}
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| (E\d+) \| ", line)
        if match and int(match.group(1)[1:]) <= 45:
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            rows[match.group(1)] = cells[-1].strip().strip("`")
    return rows


def candidate_counts(pairs: list[dict[str, Any]]) -> list[int]:
    """Candidates (all four modules, ``-norm``) summed over each pair's references."""
    sys.path.insert(0, str(ROOT / "src"))
    from meteor_eval.match.base import CandidateStore
    from meteor_eval.metrics.meteor import Meteor, MeteorConfig

    meteor = Meteor(MeteorConfig.preset("meteor15", normalization="norm"))
    counts = []
    for pair in pairs:
        hyp = meteor.segment(pair["hyp"])
        total = 0
        for text in pair["refs"]:
            ref = meteor.segment(text)
            store = CandidateStore(len(hyp), len(ref))
            for stage, matcher in enumerate(meteor.pipeline.matchers):
                store.extend(matcher.candidates(hyp, ref, stage))
                if hyp.ids == ref.ids:
                    break
            total += len(store)
        counts.append(total)
    return counts


def write_json(path: Path, payload: dict[str, Any]) -> None:
    text = json.dumps(payload, ensure_ascii=False, indent=0) + "\n"
    with gzip.GzipFile(path, "wb", mtime=0) as handle:
        handle.write(text.encode("utf-8"))


def write_readme(
    summary: dict[str, dict[str, Any]],
    refs_hist: Counter[int],
    commands: dict[str, str],
    seed: int,
    n_cases: int,
    rows: dict[str, list[str]],
) -> None:
    kinds = "\n".join(
        f"| {kind} | {v['pairs']} | {v['candidates_mean']} | {v['candidates_max']} |"
        for kind, v in summary.items()
    )
    cmds = "\n".join(f"| `{name}` | `{cmd}` |" for name, cmd in commands.items())
    n_refs = ", ".join(f"{k}: {v}" for k, v in sorted(refs_hist.items()))
    beam_diff = sum(a != b for a, b in zip(rows["norm-x1"], rows["norm-x40"], strict=True))
    text = f"""# Golden statistics of the METEOR 1.5 jar in `-stdio` mode

Produced by `scripts/make_stdio_differential.py` (seed {seed}) with `meteor-1.5.jar` and its
English paraphrase table `data/paraphrase-en.gz` from PyPI pycocoevalcap 1.2, run on
OpenJDK 17.0.15. Checked by `tests/reference/test_stdio_differential.py`.

One jar process per configuration reads all `SCORE ||| ref_1 ||| ... ||| ref_n ||| hyp` lines on
stdin and answers each with one 23-number statistics line (spec section 1.4). Each text field is
sent with a space on both sides (the jar trims fields), so empty references and hypotheses stay
present. All four English modules (exact stem synonym paraphrase) run.

| configuration | command |
|---|---|
{cmds}

Files (gzip-compressed JSON):

* `generated.json.gz`: `pairs` (id, kind, refs, hyp), `rows` (configuration -> the jar's lines,
  in pair order), `commands`, `configs` (our normalisation and beam per configuration), `seed`,
  `summary`. Phrases come from every {RECORD_STEP}th record of the paraphrase table plus the first
  {HUB_LIMIT} paraphrases of a few frequent phrases (`HUBS` in the script).
* `edge.json.gz`: the spec's edge cases E1-E45 (section 8, parsed as in
  `scripts/make_edge_golden.py`), {n_cases} of them: E36 is left out because its text contains
  `|||`, which a SCORE line cannot carry. With `-norm` the lines equal the spec table's
  statistics column.

Generated pairs per kind, and candidate matches per pair (all modules, `-norm`, summed over the
pair's references):

| kind | pairs | candidates (mean) | candidates (max) |
|---|---|---|---|
{kinds}

References per pair: {n_refs}. Rows that differ between beam 1 and beam 40: {beam_diff}.
"""
    (OUT / "README.md").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jar", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--table", type=Path, default=None)
    args = parser.parse_args()
    jar = args.jar or official_jar_or_exit()
    table = args.table or jar.parent / "data" / "paraphrase-en.gz"
    OUT.mkdir(parents=True, exist_ok=True)

    records, hubs = sample_records(table, RECORD_STEP)
    print(f"{len(records)} paraphrase records sampled (every {RECORD_STEP}th)")
    print(f"{sum(map(len, hubs.values()))} paraphrases of {len(hubs)} frequent phrases")
    pairs = generate(args.seed, records, hubs)
    cases = [c for c in parse_cases() if "|||" not in c["hypothesis"] + c["reference"]]
    print(f"{len(pairs)} generated pairs, {len(cases)} edge cases")

    lines = [score_line(p["refs"], p["hyp"]) for p in pairs]
    edge_lines = [score_line([c["reference"]], c["hypothesis"]) for c in cases]
    rows: dict[str, list[str]] = {}
    edge_rows: dict[str, list[str]] = {}
    for name, (options, _, _) in CONFIGS.items():
        answers = run_jar(jar, options, lines + edge_lines)
        rows[name] = answers[: len(lines)]
        edge_rows[name] = answers[len(lines) :]

    spec = spec_norm_rows()
    disagree = [
        c["id"] for c, row in zip(cases, edge_rows["norm-x40"], strict=True) if spec[c["id"]] != row
    ]
    print("edge cases where stdio -norm differs from the spec table:", disagree or "none")

    counts = candidate_counts(pairs)
    by_kind: dict[str, list[int]] = {}
    for pair, count in zip(pairs, counts, strict=True):
        by_kind.setdefault(pair["kind"], []).append(count)
    summary = {
        kind: {
            "pairs": len(values),
            "candidates_mean": round(statistics.fmean(values), 2),
            "candidates_max": max(values),
        }
        for kind, values in by_kind.items()
    }
    summary["all"] = {
        "pairs": len(counts),
        "candidates_mean": round(statistics.fmean(counts), 2),
        "candidates_max": max(counts),
    }
    refs_hist = Counter(len(p["refs"]) for p in pairs)
    print(json.dumps(summary, indent=1))
    print("references per pair:", dict(sorted(refs_hist.items())))

    tool = (
        "meteor-1.5.jar from PyPI pycocoevalcap 1.2 (with data/paraphrase-en.gz), OpenJDK 17.0.15"
    )
    commands = {
        name: "java -Xmx2G -jar meteor-1.5.jar - - -stdio " + " ".join(options)
        for name, (options, _, _) in CONFIGS.items()
    }
    configs = {name: {"normalization": n, "beam": b} for name, (_, n, b) in CONFIGS.items()}
    write_json(
        OUT / "generated.json.gz",
        {
            "tool": tool,
            "commands": commands,
            "configs": configs,
            "seed": args.seed,
            "record_step": RECORD_STEP,
            "summary": summary,
            "pairs": pairs,
            "rows": rows,
        },
    )
    write_json(
        OUT / "edge.json.gz",
        {
            "tool": tool,
            "commands": commands,
            "configs": configs,
            "skipped": "E36 (its text contains '|||', which a SCORE line cannot carry)",
            "cases": cases,
            "rows": edge_rows,
        },
    )
    write_readme(summary, refs_hist, commands, args.seed, len(cases), rows)
    print("written to", OUT)


if __name__ == "__main__":
    main()
