"""NLTK's word tokenizer (``NLTKWordTokenizer``, the word step of ``nltk.word_tokenize``).

HuggingFace ``evaluate``'s ``meteor`` tokenises every prediction and reference with
``nltk.word_tokenize`` before calling NLTK's METEOR, so its numbers depend on that tokenizer.
``word_tokenize`` first splits the text into sentences with the Punkt model (learned data that
nothing here ships), then applies ``NLTKWordTokenizer.tokenize`` to each sentence. That second
step is a fixed list of regular-expression rewrites (an improved Penn Treebank tokenizer), which
this module reimplements:

1. opening quotes: ``«“‘„`` and runs of backticks are split off; a ``"`` at the start, or after
   a space or opening bracket, and ``''`` after one, become the token ``````; a ``'`` that
   starts a word and is not a clitic (``'re 've 'll 'm 't 's 'd 'n``) is split off;
2. punctuation: the sentence-final period (with closing quotes or brackets after it) is split
   off; ``:`` and ``,`` are split unless a digit follows (``3,36`` stays); ellipses, ``; @ # $ %
   &``, figure and em dashes (U+2012 to U+2015), ``?``, ``!``, ``*`` and brackets are split off;
   ``--`` becomes its own token;
3. closing quotes: ``»”’`` are split off, ``"`` and ``''`` become ``''``; clitics (``'s 'm 'd
   'll 're 've n't`` and a bare ``'``) are split from the word before them;
4. contractions: ``cannot gimme gonna gotta lemme more'n wanna d'ye 'tis 'twas`` are split in
   two (``can not``, ``gon na``, ...);
5. the result is split on whitespace.

Only the first period-rule depends on the end of the text, so a text holding one sentence gives
exactly NLTK's tokens; within a text of several sentences NLTK would also split each inner
sentence's final period (``"them."`` -> ``"them" "."``), which we do only when given a sentence
splitter (:func:`word_tokenize`'s ``sentence_splitter``, e.g. ``nltk.sent_tokenize`` itself).

Where we differ from NLTK: NLTK 3.10.4 compiles these rules with the third-party ``regex``
engine, earlier releases with the standard ``re`` module, which we use. The two disagree on what
``\\w`` and ``\\s`` mean for a few unusual characters (combining marks and non-decimal digits
inside a word next to an apostrophe; the separators U+001C to U+001F before a final period), so
on such text the two NLTK releases differ from each other, and we follow the older one.

Example:
    >>> nltk_word_tokenize('Good muffins cost $3.88 (roughly 3,36 euros) in "New York."')
    ['Good', 'muffins', 'cost', '$', '3.88', '(', 'roughly', '3,36', 'euros', ')', 'in', '``', \
'New', 'York', '.', "''"]
    >>> nltk_word_tokenize("They'll say I cannot.")
    ['They', "'ll", 'say', 'I', 'can', 'not', '.']

References:
    NLTK documentation of ``nltk.tokenize.NLTKWordTokenizer`` and ``nltk.word_tokenize``.
    Penn Treebank tokenization guidelines (R. MacIntyre's ``tokenizer.sed``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final

__all__ = ["nltk_word_tokenize", "word_tokenize"]

_Rule = tuple[re.Pattern[str], str]


def _rules(*pairs: tuple[str, str]) -> tuple[_Rule, ...]:
    return tuple((re.compile(pattern), replacement) for pattern, replacement in pairs)


# Characters that may follow a sentence-final period and stay with it as closing material.
_CLOSERS: Final = "\\]\\)}>\"'»”’"

_OPENING_QUOTES: Final = _rules(
    ("([«“‘„]|`+)", r" \1 "),
    ('^"', "``"),
    ("(``)", r" \1 "),
    (r"([ \(\[{<])(\"|'')", r"\1 `` "),
    # A word-initial apostrophe that does not start a clitic is an opening single quote.
    (r"(?i)(?<!\w)(')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)", r"\1 "),
)

_PUNCTUATION: Final = _rules(
    # Final period (closing quotes, brackets and spaces may follow): split off with a space.
    ("([^.])(\\.)([" + _CLOSERS + " ]*+)\\s*$", r"\1 \2 \3 "),
    (r"([:,])([^\d])", r" \1 \2"),
    (r"([:,])$", r" \1 "),
    (r"\.{2,}", r" \g<0> "),
    (r"[;@#$%&]", r" \g<0> "),
    ("[\u2012-\u2015]", r" \g<0> "),
    ("([^.])(\\.)([" + _CLOSERS + "]*)\\s*$", r"\1 \2\3 "),
    (r"[?!]", r" \g<0> "),
    (r"([^'])' ", r"\1 ' "),
    (r"\*", r" \g<0> "),
    (r"[\][(){}<>]", r" \g<0> "),
)

_PTB_BRACKETS: Final = _rules(
    (r"\(", "-LRB-"),
    (r"\)", "-RRB-"),
    (r"\[", "-LSB-"),
    (r"\]", "-RSB-"),
    (r"\{", "-LCB-"),
    (r"\}", "-RCB-"),
)

_DOUBLE_DASH: Final = re.compile("--")

_CLOSING: Final = _rules(
    ("([»”’])", r" \1 "),
    ("''", " '' "),
    ('"', " '' "),
    (r"\s+", " "),
    ("([^' ])('[sS]|'[mM]|'[dD]|') ", r"\1 \2 "),
    ("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", r"\1 \2 "),
)

_CONTRACTIONS: Final = _rules(
    *(
        (rf"(?i)\b({head})({tail}){end}", r" \1 \2 ")
        for head, tail, end in (
            ("can", "not", r"\b"),
            ("d", "'ye", r"\b"),
            ("gim", "me", r"\b"),
            ("gon", "na", r"\b"),
            ("got", "ta", r"\b"),
            ("lem", "me", r"\b"),
            ("more", "'n", r"\b"),
            ("wan", "na", r"(?=\s)"),
        )
    ),
    (r"(?i) ('t)(is)\b", r" \1 \2 "),
    (r"(?i) ('t)(was)\b", r" \1 \2 "),
)


def _apply(text: str, rules: Iterable[_Rule]) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


def nltk_word_tokenize(text: str, *, convert_parentheses: bool = False) -> list[str]:
    """Tokens of one sentence, as ``nltk.tokenize.NLTKWordTokenizer().tokenize(text)``.

    Args:
        text: One sentence (a text of several sentences keeps their inner final periods
            attached, as NLTK's word step does).
        convert_parentheses: Write brackets as Penn Treebank symbols (``(`` -> ``-LRB-``, ...).

    Returns:
        The tokens, in order.

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    text = _apply(text, _OPENING_QUOTES)
    text = _apply(text, _PUNCTUATION)
    if convert_parentheses:
        text = _apply(text, _PTB_BRACKETS)
    text = " " + _DOUBLE_DASH.sub(" -- ", text) + " "
    text = _apply(text, _CLOSING)
    return _apply(text, _CONTRACTIONS).split()


def word_tokenize(
    text: str,
    *,
    sentence_splitter: Callable[[str], Iterable[str]] | None = None,
) -> list[str]:
    """``nltk.word_tokenize(text)``: split into sentences, then tokenise each sentence.

    Args:
        text: The text to tokenise.
        sentence_splitter: Splits ``text`` into sentences (``nltk.sent_tokenize`` gives NLTK's
            exact behaviour when NLTK and its Punkt data are installed). ``None`` treats the
            whole text as one sentence, which equals NLTK whenever Punkt would not split it.

    Returns:
        The tokens of every sentence, in order.
    """
    if sentence_splitter is None:
        return nltk_word_tokenize(text)
    return [token for sentence in sentence_splitter(text) for token in nltk_word_tokenize(sentence)]
