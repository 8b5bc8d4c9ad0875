"""The compiled BLEU and ROUGE kernels against their pure-Python twins, and the linear-memory LCS
against the quadratic table (issues #25 and #26).

* tokenizers (``_ext/texttok.c``): sacrebleu's 13a, intl, char and none, rouge-score's and
  ROUGE-1.5.5's, on random Unicode text salted with each rule's edge cases (XML entities,
  ``<skipped>``, line breaks after dashes, periods and commas next to digits, the Kelvin sign
  and dotted capital I whose lowercase is ASCII);
* intl's Unicode classes (the generated ``intl_tables.h``) against the twin's regular
  expressions on every code point, and against sacrebleu's ``regex`` classes where both
  Unicode databases agree (oracle);
* statistics rows: BLEU (``bleu_rows``) and ROUGE-N/L/Lsum (``rouge_rows``) equal the Python
  rows bit for bit, with several references, lowercasing, stemming, sentence separators and
  pooled references;
* LCS: the bit-parallel length and the checkpointed backtrace (Python twins on integers and
  ``_ext/lcs.c``) equal rouge-score's table version, and ROUGE-W's checkpointed weighted LCS
  (Python and C) marks the positions ROUGE-1.5.5's full table marks.

Skipped (except the LCS twins) when the extension is not built.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import meteor_eval.align.lcs as lcs_module
import meteor_eval.metrics.rouge as rouge_module
from meteor_eval import _ext
from meteor_eval.align.lcs import (
    lcs_indices,
    lcs_indices_table,
    lcs_length,
    lcs_table,
    wlcs_hit_mask,
    wlcs_hit_mask_table,
)
from meteor_eval.metrics.bleu import Bleu, BleuConfig
from meteor_eval.metrics.rouge import Rouge, RougeConfig
from meteor_eval.text import bleu_tokenizers
from meteor_eval.text.bleu_tokenizers import get_bleu_tokenizer
from meteor_eval.text.rouge_tokenizer import tokenize_rouge155, tokenize_rouge_score

KERNELS = _ext.built_module()
needs_build = pytest.mark.skipif(KERNELS is None, reason="extension not built")
ROOT = Path(__file__).resolve().parents[2]

# Pieces that exercise each tokenizer rule, mixed with arbitrary Unicode (no surrogates).
EDGE_PIECES = [
    "&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;", "&", "<skipped>", "-\n", "\n", "-",
    "3.14", "1,000", ".", ",", "a.", ".b", "9-", "'", "$", "(", ")", " ", "\t", "\u00a0",
    "\u3000", "\u212a", "\u0130", "K", "Z", "é", "٣", "۔", "«", "»", "€", "½", "\u2028", "x1",
]  # fmt: skip
TEXT = st.lists(
    st.one_of(
        st.sampled_from(EDGE_PIECES),
        st.text(st.characters(exclude_categories=("Cs",)), max_size=6),
    ),
    max_size=25,
).map("".join)
WORDS = st.lists(st.sampled_from(["a", "b", "c", "the", "cats", "running", "A", "B."]), max_size=30)
BLEU_NAMES = ("13a", "intl", "char", "none")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _compiled_tokens(kind: int, line: str) -> list[str]:
    assert KERNELS is not None
    tokens: list[str] = KERNELS.text_tokenize(kind, line)
    return tokens


@needs_build
@SETTINGS
@given(line=TEXT)
@example(line=" &amp;quot; 3.14, a.b 9-1 <skip<skipped>ped> x-\n- end. ")
@example(line="«Hello», 1,000.5 ½ € — (x)")
def test_bleu_tokenizers_equal_their_twins(line: str) -> None:
    for kind, name in enumerate(BLEU_NAMES):
        expected = get_bleu_tokenizer(name)(line.rstrip()).split()
        assert _compiled_tokens(kind, line) == expected, name


@needs_build
@SETTINGS
@given(line=TEXT)
@example(line="\u212aelvin \u0130stanbul KÉLVIN x\u0130y")
def test_rouge_tokenizers_equal_their_twins(line: str) -> None:
    assert _compiled_tokens(4, line) == list(tokenize_rouge_score(line))
    assert _compiled_tokens(5, line) == list(tokenize_rouge155(line))


def _twin_classes() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    punct, symbol, number = (bleu_tokenizers._class_of(c) for c in "PSN")
    return re.compile(f"[{punct}]"), re.compile(f"[{symbol}]"), re.compile(f"[{number}]")


@needs_build
def test_intl_table_equals_the_twin_classes_on_every_code_point() -> None:
    assert KERNELS is not None
    punct, symbol, number = _twin_classes()
    for code in range(0x110000):
        char = chr(code)
        expected = (
            1 if punct.match(char) else 2 if symbol.match(char) else 3 if number.match(char) else 0
        )
        assert KERNELS.intl_class(code) == expected, hex(code)


def test_intl_table_header_is_up_to_date() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_intl_tables.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.oracle
@needs_build
def test_intl_table_equals_sacrebleu_regex_classes_where_unicode_versions_agree() -> None:
    regex = pytest.importorskip("regex")
    assert KERNELS is not None
    classes = [regex.compile(r"\p{P}"), regex.compile(r"\p{S}"), regex.compile(r"\p{N}")]
    differ = 0
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) == "Cn":
            continue  # unassigned in Python's database: the regex module's may be newer
        expected = next((k + 1 for k, c in enumerate(classes) if c.match(char)), 0)
        differ += KERNELS.intl_class(code) != expected
    # characters re-categorised between the two Unicode versions, if any, are very few
    assert differ <= 16


@needs_build
@SETTINGS
@given(
    hyp=TEXT,
    refs=st.lists(TEXT, min_size=1, max_size=3),
    lowercase=st.booleans(),
    order=st.integers(1, 5),
)
def test_bleu_rows_equal_the_python_rows(
    hyp: str, refs: list[str], lowercase: bool, order: int
) -> None:
    for name in BLEU_NAMES:
        bleu = Bleu(
            BleuConfig(tokenize=name, lowercase=lowercase, max_ngram_order=order)  # type: ignore[arg-type]
        )
        pairs = [(hyp, refs), (refs[0], [hyp, *refs])]
        assert bleu.segment_rows(pairs) == bleu._segment_rows_python(pairs), name


@needs_build
@SETTINGS
@given(
    hyp=st.lists(WORDS, max_size=4),
    refs=st.lists(st.lists(WORDS, max_size=4), min_size=1, max_size=3),
    stem=st.booleans(),
    average=st.booleans(),
    separator=st.sampled_from([None, " B. ", "a"]),
)
def test_rouge_rows_equal_the_python_rows(
    hyp: list[list[str]],
    refs: list[list[list[str]]],
    stem: bool,
    average: bool,
    separator: str | None,
) -> None:
    sep = separator or "\n"
    hyp_text = sep.join(" ".join(s) for s in hyp)
    ref_texts = [sep.join(" ".join(s) for s in ref) for ref in refs]
    config = RougeConfig(
        types=("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"),
        use_stemmer=stem,
        multi_ref="average" if average else "best",
        sentence_separator=separator,
    )
    pairs = [(hyp_text, ref_texts)]
    compiled = Rouge(config).segment_rows(pairs)
    single = Rouge(config).segment_stats(hyp_text, ref_texts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rouge_module, "_ROUGE_ROWS", None)
        python = Rouge(config)
        assert compiled == python.segment_rows(pairs)
        assert single == python.segment_stats(hyp_text, ref_texts)


@needs_build
def test_rouge_corpus_sum_is_the_row_by_row_sum() -> None:
    texts = [" ".join(f"w{(k * j) % 7}" for j in range(k % 13)) for k in range(3000)]
    hyps, refs = texts, [[t[::-1], t] for t in reversed(texts)]
    rouge = Rouge(RougeConfig(types=("rouge1", "rougeL", "rougeLsum")))
    fast = rouge.corpus_score(hyps, refs)
    rows = rouge.segment_rows(list(zip(hyps, refs, strict=True)))
    slow = rouge.score_rows(rows, [2] * len(rows))
    assert fast == slow


SEQUENCES = st.lists(st.sampled_from("abcd"), max_size=140)


@settings(max_examples=400, deadline=None)
@given(reference=SEQUENCES, hypothesis=SEQUENCES)
@example(reference=list("ab" * 70), hypothesis=list("ba" * 70))
def test_linear_memory_lcs_equals_the_table(reference: list[str], hypothesis: list[str]) -> None:
    table = lcs_table(reference, hypothesis)
    picked = lcs_indices_table(reference, hypothesis)
    assert lcs_length(reference, hypothesis) == table[-1][-1] == len(picked)
    assert lcs_indices(reference, hypothesis) == picked
    if KERNELS is not None:
        ids = {c: k for k, c in enumerate("abcd")}
        a, b = [ids[c] for c in reference], [ids[c] for c in hypothesis]
        assert KERNELS.lcs_length_ids(a, b) == table[-1][-1]
        assert KERNELS.lcs_picks_ids(a, b) == picked


@settings(max_examples=300, deadline=None)
@given(
    reference=SEQUENCES,
    hypothesis=SEQUENCES,
    weight=st.sampled_from([1.2, 1.5, 2.0, 3.7]),
)
@example(reference=list("aab" * 40), hypothesis=list("ab" * 60), weight=1.2)
def test_linear_memory_weighted_lcs_equals_the_table(
    reference: list[str], hypothesis: list[str], weight: float
) -> None:
    expected = [False] * len(reference)
    wlcs_hit_mask_table(reference, hypothesis, weight, expected)
    compiled = [False] * len(reference)
    wlcs_hit_mask(reference, hypothesis, weight, compiled)
    assert compiled == expected
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lcs_module, "_WLCS_MASK", None)
        python = [False] * len(reference)
        wlcs_hit_mask(reference, hypothesis, weight, python)
    assert python == expected
