"""The caption tokenizer of the COCO caption evaluation (pycocoevalcap), without Java.

pycocoevalcap tokenizes every caption with Stanford CoreNLP 3.4.1's ``PTBTokenizer``
(``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines
-lowerCase FILE``), one caption a line, then drops the tokens of a fixed punctuation list
(:data:`PUNCTUATIONS`). This module gives the same tokens in process. It is written from the
tokenizer's documented options and from experiments against the jar (never from its rules or
code, which are GPL): every behaviour below was observed on the jar and is pinned by a test.

What the lexer does, as far as it survives the punctuation filter:

* **Lines.** ``\\n``, ``\\r\\n``, ``\\r``, vertical tab, form feed, U+2028 and U+2029 end a line;
  pycocoevalcap replaces only ``\\n`` inside a caption, so any other line break in a caption
  shifts every later caption by one line, exactly as in the original (:func:`split_lines`).
* **Spaces.** Any Unicode space, NBSP, zero-width space, ``&nbsp;``, control characters and
  characters outside the Basic Multilingual Plane (emoji; the lexer deletes them) separate
  tokens; the soft hyphen is deleted; U+0085 is an ellipsis.
* **Words.** Letters and digits, joined by inner hyphens (``well-known``, ``b-52``), slashes
  (``and/or``, ``24/7``), underscores, ``&`` between capitals (``AT&T``) and periods between
  letters (``www.example.com``, ``a.the``). Numbers keep ``.``, ``,`` and ``:`` between digits and
  a leading sign (``1,000``, ``3.5``, ``12:30``, ``-5``, ``.5``); ``3.5cm`` is ``3.5 cm``.
* **Periods.** A final period is its own token (then filtered), except after a single ASCII
  letter (``a.``), in dotted initialisms (``u.s.``, ``e.g.``, ``p.m.``) and after the
  abbreviations of :data:`_ABBREVIATIONS` (``mr.``, ``st.``, ``etc.``); ``No.`` keeps its period
  before a number.
* **Apostrophes.** ``n't``, ``'s``, ``'m``, ``'d``, ``'ll``, ``'re``, ``'ve`` are split off
  (``don't`` is ``do n't``, ``can't`` is ``ca n't``); ``cannot``, ``gonna``, ``gotta``,
  ``wanna``, ``lemme``, ``gimme`` are split in two; ``o'clock``, ``d'``/``l'``/``n'`` names,
  ``c'mon``, ``ma'am``, ``'em``, ``'cause``, ``'til``, ``'n'``, ``'90s`` stay whole; ``'tis`` is
  ``'t is``; any other apostrophe is a quote (filtered).
* **Symbols.** Brackets become ``-lrb-``, ``-rrb-``, ``-lsb-``, ``-rsb-``, ``-lcb-``, ``-rcb-``
  (lowercased, so pycocoevalcap's filter, which lists ``-LRB-``, keeps them); ``£`` is ``#``,
  ``€`` is ``$``, ``¢`` is ``cents``; ``½ ¼ ¾ ⅓ ⅔`` are written out; runs of ``!``/``?`` and of
  ``*`` are one token; smileys (``:)`` is ``:-rrb-``) are one token; ``&amp;``, ``&lt;``,
  ``&gt;`` are decoded.

:func:`caption_tokens` runs through the compiled ``ptb_caption_lines`` (``_ext/ptb.c``) where
the extension is built: it reads the lines, the plain lines and words, the separators and the
chunk cache in C and calls back into this module for the rest (a new chunk's tokens, the context
rule of a flagged chunk, a line holding a slash). This module stays the readable twin of the
whole (:func:`_caption_tokens_python`) and runs alone under ``METEOR_EVAL_PURE_PYTHON=1``.

Known differences (none seen in caption data): phone numbers with an area code in brackets,
``<`` or ``>`` glued to a letter, URLs with unusual characters, and scripts whose digits are not
ASCII may be split otherwise than by the jar.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from meteor_eval._ext import compiled_kernels

__all__ = [
    "PUNCTUATIONS",
    "caption_tokens",
    "clear_caches",
    "ptb_tokens",
    "split_lines",
    "tokenize_caption",
]

#: pycocoevalcap's ``PUNCTUATIONS``: tokens removed after tokenizing (case-sensitive, so the
#: lowercased bracket tokens ``-lrb-`` etc. are kept, as in the original).
PUNCTUATIONS: frozenset[str] = frozenset(
    ("''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-")
) | frozenset(("--", "...", ";"))

# Line ends of the lexer (observed): \n, \r\n, \r, VT, FF, LS, PS.
_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\u2028\u2029]")

# Abbreviations whose period stays on the word, found by probing the jar with a list of common
# English abbreviations, each in lower, capitalised and upper case.
_ABBREVIATIONS = frozenset(
    """adm al ala apr ariz assn assoc asst aug ave bldg blvd brig bros calif capt cf cie cmdr co
    col colo conn corp cos cpl ct dec dept det dr esq est etc ext feb fla fri ft ga gen gov hon
    inc ind insp intl jan jr jul jun kan kans ky lt ltd maj mar md messrs mich minn mlle mme mo
    mon mont mr mrs ms mt natl neb nev nov oct okla penn ph plc pres prof pvt rd rep rev sen sep
    sept seq sgt sq sr st ste supt tel tenn thu thurs tue tues univ va vs vt wed wis wisc
    wyo""".split()
)
# ... only when capitalised (as lowercase words they are ordinary words: "ill.", "wash.").
_CAPITALISED_ABBREVIATIONS = frozenset("ark del ill la mass miss ore pa tex wash".split())
# ... only when not all capitals.
_MIXED_CASE_ABBREVIATIONS = frozenset(["mfg", "pty"])

# Words the lexer splits in two (case-insensitive; the split point is kept).
_SPLIT_WORDS = {"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "lemme": 3, "gimme": 3}
# Contraction suffixes split off a word (after the apostrophe).
_SUFFIXES = frozenset(["s", "m", "d", "ll", "re", "ve"])
# Words with an inner apostrophe that stay whole (lowercase).
_WHOLE_APOSTROPHE_WORDS = frozenset(["c'mon", "ma'am", "qu'il"])
# One-letter prefixes joined to the rest (o'clock, d'angelo, l'amour, n'est) or cut after the
# apostrophe (y'all -> y' all, j'ai -> j' ai).
_JOINED_PREFIXES = frozenset("odln")
_CUT_PREFIXES = frozenset("jy")

_FRACTIONS = {"\u00bd": "1/2", "\u00bc": "1/4", "\u00be": "3/4", "\u2153": "1/3", "\u2154": "2/3"}
_BRACKETS = {"(": "-LRB-", ")": "-RRB-", "[": "-LSB-", "]": "-RSB-", "{": "-LCB-", "}": "-RCB-"}
_CURRENCY = {"\u00a3": "#", "\u20ac": "$", "\u00a2": "cents"}
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "''"}

# Letters, ASCII digits and combining marks; vulgar fractions, superscripts and circled numbers,
# which Python counts as alphanumeric, are symbols to the lexer.
_NOT_LETTER = r"\W\d_\u00b2\u00b3\u00b9\u00bc-\u00be\u2150-\u218f\u2460-\u24ff"
_LM = rf"(?:[^{_NOT_LETTER}][\u0300-\u036f]*)"  # a letter and its combining marks
_AN = rf"(?:(?:[^{_NOT_LETTER}]|[0-9])[\u0300-\u036f]*)"  # a letter or an ASCII digit

# Candidate tokens at one position; the longest match wins, the first listed on a tie (as in a
# JFlex lexer). Each entry: (pattern, kind).
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"https?://[^\s\"'<>()\[\]{}]+"), "raw"),
    (re.compile(rf"{_AN}+(?:[._]{_AN}+)*@{_AN}+(?:\.{_AN}+)*"), "raw"),
    (re.compile(r"[#@][A-Za-z][\w]*"), "raw"),
    # words with hyphens, slashes, underscores, capitals' ampersands and apostrophes inside
    (
        re.compile(rf"{_AN}+(?:[-/_']{_AN}+)*"),
        "word",
    ),
    # a whole number and a fraction, joined by a no-break space: "5 1/2"
    (re.compile("\\d{1,4}\u2063\\d{1,4}/\\d{1,4}"), "mixed"),
    # numbers with a hyphenated tail: 3.5-inch
    (re.compile(rf"\d+(?:[.,]\d+)+(?:-{_AN}+)+"), "raw"),
    # letters joined by periods, the last a single letter with its period: ph.d.
    (re.compile(r"[A-Za-z]+(?:\.[A-Za-z]+)*\.[A-Za-z]\."), "raw"),
    # letters joined by periods: www.example.com, a.the, ph.d
    (re.compile(rf"{_LM}{_AN}*(?:\.{_LM}{_AN}*)+"), "raw"),
    # dotted initialisms and single letters with their period: a. u.s. e.g.
    (re.compile(r"(?:[A-Za-z]\.)+"), "raw"),
    (re.compile(rf"{_LM}+\."), "abbrev"),
    (re.compile(r"[-+]?(?:\d+(?:[.,:]\d+)*|[.,]\d+)"), "raw"),
    (re.compile(r"['\u2019]\d\d(?:[sS](?![^\W_])|$)"), "raw"),
    (re.compile(r"'(?:[sSmMdD]|ll|LL|re|RE|ve|VE|em|EM|cause|til)(?![^\W_])"), "raw"),
    (re.compile(r"'[nN]'?(?![^\W_])"), "raw"),
    (re.compile(r"'[tT](?=(?:is|IS|was|WAS)(?![^\W_]))"), "raw"),
    (re.compile(r"[:;=]-?[()\[\]DPOdp]"), "smiley"),
    (re.compile(r"(?:[oO][lL]|[jJ])'(?![^\W_])"), "raw"),
    (re.compile(r"\^_\^|-_-"), "raw"),
    (re.compile(r"[A-Z]+(?:&[A-Z]+)+"), "raw"),
    (re.compile(r"</?[A-Za-z][^<>]*>"), "raw"),
    (re.compile(r"&(?:amp|lt|gt|quot);|&#\d+;"), "entity"),
    (re.compile(r"[A-Z]{1,2}\$"), "raw"),
    (re.compile(r"\.\.\.+|\u2026"), "punct"),
    (re.compile(r"[!?]+"), "raw"),
    (re.compile(r"\*+"), "raw"),
    (re.compile(r"-{2,}|[\u2013\u2014]+"), "punct"),
    (re.compile(r"``|''|[\"\u201c\u201d\u201e\u00ab\u00bb'`\u2018\u2019]"), "punct"),
    (re.compile(r"[()\[\]{}]"), "bracket"),
    (re.compile(r"[\u00a3\u20ac\u00a2]"), "currency"),
    (re.compile(r"[\u00bd\u00bc\u00be\u2153\u2154]"), "fraction"),
    (re.compile(r"."), "raw"),
]
_FIRST_CHARS: dict[str, list[tuple[re.Pattern[str], str]]] = {}

# Characters that separate tokens (spaces, controls, zero-width space, NEL, characters the lexer
# deletes: outside the BMP, private use, letter-like numerals) and HTML's non-breaking space.
_SEPARATORS_RUN = re.compile(
    "((?:[\\s\u00a0\u200b\u0085\x00-\x08\x0e-\x1f\x7f\u2160-\u2188\ud800-\udfff\ue000-\uf8ff]"
    "|[\U00010000-\U0010ffff]|&nbsp;)+)"
)
_LEADING_WORD = re.compile(r"[A-Za-z]+(?![.A-Za-z])")
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# Words after which a one-letter initial's period is a full stop (capitalised; found by probing
# the jar with common sentence openers).
_SENTENCE_STARTERS = frozenset(
    """a an the this there these that it he she they we you her our their in at but so if when
    while as after many some what one here then yet once other such""".split()
)
_SIMPLE = re.compile(r"[a-z]+")
# Lines of words that are single tokens (lowercased): ASCII letters and digits joined by inner
# hyphens.
_SIMPLE_WORDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?: [a-z0-9]+(?:-[a-z0-9]+)*)*")
# Every abbreviation in lower case (whether it keeps its period depends on its case).
_ANY_ABBREVIATION = _ABBREVIATIONS | _CAPITALISED_ABBREVIATIONS | _MIXED_CASE_ABBREVIATIONS
_COMMA_DIGIT = re.compile(r",[0-9]")
_MIXED_FRACTION = re.compile(r"(?<!\S)(\d{1,4}) (\d{1,4}/\d{1,4})")
_YEAR = re.compile(r"\d\d[sS]?")
_CLOSING_QUOTE = re.compile("\u2019(?!\\d\\d)")


def split_lines(text: str) -> list[str]:
    """The lines the lexer reads from ``text`` (its line breaks, not only ``\\n``).

    Example:
        >>> split_lines("a\\rb\\r\\nc")
        ['a', 'b', 'c']
    """
    return _LINE_BREAK.split(text)


def _split_apostrophes(word: str, at_end: bool) -> list[str]:
    """Tokens of a word with inner apostrophes: contractions off, quotes apart."""
    if word.lower() in _WHOLE_APOSTROPHE_WORDS:
        return [word]
    parts = word.split("'")
    out: list[str] = []
    current = parts[0]
    for index, part in enumerate(parts[1:], start=1):
        low = part.lower()
        last = index == len(parts) - 1
        if low == "t" and len(current) > 1 and current[-1] in "nN":
            out.append(current[:-1])
            current = current[-1] + "'" + part
        elif low in _SUFFIXES or (
            _YEAR.fullmatch(part) and (at_end or not last or part[-1] in "sS")
        ):
            if current:
                out.append(current)
            current = "'" + part
        elif low == "n" and current:
            # rock'n'roll -> rock 'n' roll; more'n -> more 'n
            out.append(current)
            if last:
                current = "'" + part
            else:
                out.append("'" + part + "'")
                current = ""
                continue
        elif not out and len(current) == 1 and current.lower() in _JOINED_PREFIXES:
            current = current + "'" + part
        elif not out and len(current) == 1 and current.lower() in _CUT_PREFIXES:
            out.append(current + "'")
            current = part
        else:
            if current:
                out.append(current)
            out.append("'")
            current = part
    if current:
        out.append(current)
    return [t for t in out if t]


def _word_tokens(word: str, at_end: bool = True) -> list[str]:
    if "'" in word:
        tokens: list[str] = []
        for piece in _split_apostrophes(word, at_end):
            tokens.extend(_word_tokens(piece) if "'" not in piece else [piece])
        return tokens
    cut = _SPLIT_WORDS.get(word.lower())
    if cut is not None:
        return [word[:cut], word[cut:]]
    low = word.lower()
    if low.endswith("n't") and len(word) > 3:
        return [word[:-3], word[-3:]]
    return [word]


def _is_abbreviation(stem: str) -> bool:
    low = stem.lower()
    if low in _ABBREVIATIONS:
        return True
    if low in _CAPITALISED_ABBREVIATIONS:
        return stem[0].isupper()
    if low in _MIXED_CASE_ABBREVIATIONS:
        return not stem.isupper()
    return False


def _chunk_tokens(chunk: str) -> list[str]:
    """The lexer's tokens (before lowercasing and filtering) of a text without separators."""
    tokens: list[str] = []
    pos = 0
    size = len(chunk)
    while pos < size:
        best_len = 0
        best_kind = ""
        for pattern, kind in _RULES:
            match = pattern.match(chunk, pos)
            if match is not None and match.end() - pos > best_len:
                best_len = match.end() - pos
                best_kind = kind
        text = chunk[pos : pos + best_len]
        if best_kind == "word":
            tokens.extend(_word_tokens(text, pos + best_len == size))
        elif best_kind == "abbrev":
            if _is_abbreviation(text[:-1]):
                tokens.append(text)
            else:
                # not an abbreviation: the word, then its period
                best_len = len(text) - 1
                tokens.extend(_chunk_tokens(text[:-1]))
        elif best_kind == "mixed":
            tokens.append(text.replace("\u2063", "\u00a0"))
        elif best_kind == "bracket":
            tokens.append(_BRACKETS[text])
        elif best_kind == "smiley":
            tokens.append(text[:-1] + _BRACKETS[text[-1]] if text[-1] in "()" else text)
        elif best_kind == "entity":
            tokens.append(_ENTITIES.get(text, text))
        elif best_kind == "currency":
            tokens.append(_CURRENCY[text])
        elif best_kind == "fraction":
            tokens.append(_FRACTIONS[text])
        elif best_kind == "punct":
            tokens.append(
                "..."
                if text[0] in ".\u2026"
                else ("--" if text[0] != "'" and text[0] in "-\u2013\u2014" else "''")
            )
        else:
            tokens.append(text)
        pos += best_len
    return tokens


@lru_cache(maxsize=2**18)
def _chunk_output(chunk: str) -> tuple[str, ...]:
    """Lowercased, filtered tokens of one chunk (cached: captions repeat their words)."""
    return tuple(
        low for token in _chunk_tokens(chunk) if (low := token.lower()) not in PUNCTUATIONS
    )


def _chunks(line: str) -> list[str]:
    """The chunks of a line: the texts between separators."""
    line = _CLOSING_QUOTE.sub("'", line.replace("\u00ad", ""))
    if "/" in line:
        line = _MIXED_FRACTION.sub("\\1\u2063\\2", line)
    return [chunk for chunk in _SEPARATORS_RUN.split(line)[::2] if chunk]


def _starts_sentence(chunk: str) -> bool:
    """Whether a chunk opens with a word after which an initial's period ends the sentence."""
    match = _LEADING_WORD.match(chunk)
    if match is None:
        return False
    word = match.group()
    return word[0].isupper() and word.lower() in _SENTENCE_STARTERS


#: chunk -> (filtered tokens, ends with "X." (1), with "no." (2) or neither (0)), for the
#: context rules of :func:`_line_tokens`.
_CHUNK_CACHE: dict[str, tuple[tuple[str, ...], int]] = {}
_ASCII_SEPARATORS = frozenset(
    "\t\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f&"
)


def _chunk_entry(chunk: str) -> tuple[tuple[str, ...], int]:
    tokens = _chunk_output(chunk)
    flag = 0
    if chunk[-1] == "." and len(chunk) >= 2:
        if (
            chunk[-2] in _ASCII_LETTERS
            and (len(chunk) == 2 or (not chunk[-3].isalnum() and chunk[-3] != "."))
            and tokens
            and tokens[-1] == chunk[-2:].lower()
        ):
            flag = 1
        elif chunk.lower().endswith("no.") and tokens and tokens[-1] == "no":
            flag = 2
    if len(_CHUNK_CACHE) < 2**20:
        _CHUNK_CACHE[chunk] = (tokens, flag)
    return tokens, flag


def _first_chunk(line: str | None) -> str | None:
    """The first chunk of a line (``None``: no line, or a line of separators only)."""
    if not line:
        return None
    chunks = _fast_chunks(line)
    return chunks[0] if chunks else None


def _line_tokens(chunks: list[str], next_line: str | None) -> list[str]:
    """The kept tokens of a line's chunks; ``next_line`` (the line after it, if any) is read
    only when the last chunk's period depends on what follows."""
    out: list[str] = []
    last = len(chunks) - 1
    cache = _CHUNK_CACHE
    for index, chunk in enumerate(chunks):
        entry = cache.get(chunk)
        tokens, flag = entry if entry is not None else _chunk_entry(chunk)
        if flag:
            following = chunks[index + 1] if index < last else _first_chunk(next_line)
            tokens = _in_context(tokens, flag, following)
        out.extend(tokens)
    return out


def _in_context(tokens: tuple[str, ...], flag: int, following: str | None) -> tuple[str, ...]:
    """A flagged chunk's tokens (:func:`_chunk_entry`) given the chunk that follows it (``None``:
    none, the line ends the text)."""
    if following is None:
        return tokens
    if flag == 1 and _starts_sentence(following):
        # An initial ("B.") before a sentence-opening word ("The"): the period ends the
        # sentence and is its own token.
        return (*tokens[:-1], tokens[-1][:-1])
    if flag == 2 and following[0].isdigit():
        # "No." keeps its period before a number
        return (*tokens[:-1], "no.")
    return tokens


def clear_caches() -> None:
    """Forget the tokens of the chunks seen so far (for benchmarks that time cold runs)."""
    _CHUNK_CACHE.clear()
    _chunk_output.cache_clear()


def _fast_chunks(line: str) -> list[str]:
    """:func:`_chunks` for the usual line: ASCII, spaces only, no entity, no fraction."""
    if line.isascii() and _ASCII_SEPARATORS.isdisjoint(line) and "/" not in line:
        return [chunk for chunk in line.split(" ") if chunk]
    return _chunks(line)


def ptb_tokens(line: str) -> list[str]:
    """The lexer's tokens of one line, lowercased, *before* pycocoevalcap's punctuation filter.

    Only tokens that survive the filter are guaranteed to be the jar's; filtered tokens are
    normalised to one spelling of their kind (``''`` for every quote, ``...``, ``--``).

    Example:
        >>> ptb_tokens("A dog's toy (red).")
        ['a', 'dog', "'s", 'toy', '-lrb-', 'red', '-rrb-', '.']
    """
    return [token.lower() for chunk in _chunks(line) for token in _chunk_tokens(chunk)]


def tokenize_caption(caption: str, next_line: str | None = None) -> list[str]:
    """The tokens pycocoevalcap keeps for one caption (one line: no line break inside).

    Args:
        caption: The caption.
        next_line: The caption on the next line, if any (an initial such as ``B.`` at the end
            of a line loses its period when the next line opens a sentence).

    Example:
        >>> tokenize_caption("A man isn't riding a WAVE, on top of a surf-board!")
        ['a', 'man', 'is', "n't", 'riding', 'a', 'wave', 'on', 'top', 'of', 'a', 'surf-board']
    """
    return _line_tokens(_chunks(caption), next_line)


# The caption lines in one compiled call (None: _caption_tokens_python does it).
_PTB_KERNEL: Any = compiled_kernels("ptb_caption_lines")
_SPLIT_WORD_TUPLE = tuple(_SPLIT_WORDS)


def caption_tokens(captions: Sequence[str]) -> list[str]:
    """pycocoevalcap's tokenized captions: one string (tokens joined by spaces) per caption.

    The captions are joined by newlines (each caption's own ``\\n`` replaced by a space) and
    read line by line, so a caption holding another line break (``\\r``, form feed, U+2028)
    shifts the later captions by one line as in the original; extra lines at the end are
    dropped, as pycocoevalcap's ``zip`` drops them.

    Example:
        >>> caption_tokens(["A cat.", "Dogs' toys!"])
        ['a cat', 'dogs toys']

    The compiled kernel ``ptb_caption_lines`` (``_ext/ptb.c``) reads the lines, the plain
    lines and the separators itself and asks this module for the rest (a new chunk's tokens, a
    flagged chunk's context, a line with a slash); :func:`_caption_tokens_python` is its
    readable twin and does the whole job where the kernel does not apply (a caption with a
    line break other than ``\\n``, an item that is not a string, no extension).
    """
    if _PTB_KERNEL is not None:
        lines = _PTB_KERNEL.ptb_caption_lines(
            captions if type(captions) is list else list(captions),
            _CHUNK_CACHE,
            _chunk_entry,
            _in_context,
            _first_chunk,
            _caption_line,
            _SPLIT_WORD_TUPLE,
            _ANY_ABBREVIATION,
        )
        if lines is not None:
            return lines  # type: ignore[no-any-return]
    return _caption_tokens_python(captions)


def _caption_tokens_python(captions: Sequence[str]) -> list[str]:
    """:func:`caption_tokens` in Python (the twin of ``ptb_caption_lines``)."""
    text = "\n".join(caption.replace("\n", " ") for caption in captions)
    lines = split_lines(text)[: len(captions) + 1]
    return [
        _caption_line(lines[index], lines[index + 1] if index + 1 < len(lines) else None)
        for index in range(min(len(captions), len(lines)))
    ]


def _caption_line(line: str, next_line: str | None) -> str:
    """The tokenized string of one line (``next_line``: the line after it, if any)."""
    simple = _simple_line(line)
    if simple is not None:
        return simple
    return " ".join(_line_tokens(_fast_chunks(line), next_line))


def _simple_line(line: str) -> str | None:
    """The tokens of a line of ASCII words, spaces, commas and one final period, or ``None``.

    Most captions are such lines; their tokens are their lowercased words, unless a word is
    split by the lexer (``cannot``) or keeps its final period (``st.``, ``a.``, and ``no.``
    when the next line opens with a digit). Words are letters, or letters and digits joined by
    inner hyphens (``half-eaten``, ``3-d``, ``b-52``: one token each), except that a comma
    before a digit makes a number (``1,000``, ``,5``).
    """
    core = line.rstrip(" .")
    tail = line[len(core) :]
    if tail.count(".") > 1 or not core.isascii():
        return None
    words = core.lower().replace(",", " ").split()
    out = " ".join(words)
    if not "".join(words).isalpha() and (
        _SIMPLE_WORDS.fullmatch(out) is None or _COMMA_DIGIT.search(core) is not None
    ):
        return None
    if tail.startswith(".") and words:
        last = words[-1]
        if len(last) == 1 or last == "no":
            return None
        if last in _ANY_ABBREVIATION and _is_abbreviation(core.replace(",", " ").split()[-1]):
            return None
    if not _SPLIT_WORDS.keys().isdisjoint(words):
        return None
    return out
