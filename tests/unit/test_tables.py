"""Table readers (``meteor_eval.tables``): one reader per format with the format's own rules
(issue #28): TSV without quoting, CSV as RFC 4180, JSON Lines without a key twice; a byte-order
mark dropped, gzip named, bad UTF-8 named by line.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from meteor_eval import corpus_bleu
from meteor_eval.errors import InputError
from meteor_eval.io import read_segments
from meteor_eval.tables import read_table

FIELDS = {"hyp_fields": ["hyp"], "ref_fields": ["ref"]}


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _body(name: str, *rows: tuple[bytes, bytes]) -> bytes:
    """A table of the fields hyp and ref in the format the file name says, rows as raw bytes
    (so that a test can put bytes that are not UTF-8 in a field)."""
    if name == "t.jsonl":
        return b"".join(b'{"hyp": "%s", "ref": "%s"}\n' % row for row in rows)
    separator = b"," if name == "t.csv" else b"\t"
    return b"".join(hyp + separator + ref + b"\n" for hyp, ref in [(b"hyp", b"ref"), *rows])


def test_tsv_keeps_quotes_as_text(tmp_path: Path) -> None:
    hyp = '"Hello," he said.'
    ref = '"Hello," he said to me.'
    path = _write(tmp_path, "t.tsv", f"hyp\tref\n{hyp}\t{ref}\n".encode())
    table = read_table(path, **FIELDS)
    assert table.hypotheses["hyp"] == [hyp] and table.references == [[ref]]
    # The numbers: with the quotes kept the score is the text's own.
    kept = corpus_bleu([hyp], [[ref]]).score
    lost = corpus_bleu(["Hello, he said."], [[ref]]).score
    assert kept != lost


def test_tsv_unclosed_quote_does_not_swallow_the_next_row(tmp_path: Path) -> None:
    text = 'hyp\tref\n"open\tx\nsecond\ty\nthird\tz\n'
    table = read_table(_write(tmp_path, "t.tsv", text.encode()), **FIELDS)
    assert table.hypotheses["hyp"] == ['"open', "second", "third"]
    assert table.references == [["x"], ["y"], ["z"]]


def test_tsv_crlf_lines_and_missing_final_break(tmp_path: Path) -> None:
    table = read_table(_write(tmp_path, "t.tsv", b"hyp\tref\r\na\tb\r\nc\td"), **FIELDS)
    assert table.hypotheses["hyp"] == ["a", "c"] and table.references == [["b"], ["d"]]


def test_csv_quoting_follows_rfc_4180(tmp_path: Path) -> None:
    text = 'hyp,ref\n"""Hello,"" he said","two\nlines"\n'
    table = read_table(_write(tmp_path, "t.csv", text.encode()), **FIELDS)
    assert table.hypotheses["hyp"] == ['"Hello," he said'] and table.references == [["two\nlines"]]


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        pytest.param(
            "t.tsv", b"hyp\tref\na\tb\nc\td\te\n",
            r"t\.tsv: line 3: 3 fields but the header has 2", id="tsv-wrong-field-count",
        ),
        pytest.param(
            "t.csv", b'hyp,ref\n"a,b\nc,d\n', r"t\.csv: line \d: not valid CSV",
            id="csv-quote-open-at-the-end",
        ),
        pytest.param(
            "t.jsonl", b'{"hyp": "a", "ref": "r"}\n{"hyp": "a", "hyp": "b"}\n',
            r"t\.jsonl: line 2: key 'hyp' appears twice", id="jsonl-duplicated-key",
        ),
        pytest.param(
            "t.jsonl", b'{"hyp": "a", "ref": "r", "m": {"x": 1, "x": 2}}\n',
            "key 'x' appears twice", id="jsonl-duplicated-key-in-a-nested-object",
        ),
        pytest.param(
            "t.csv", b"hyp,ref,hyp\na,b,c\n", r"line 1: field 'hyp' appears twice in the header",
            id="csv-duplicated-header",
        ),
    ],
)  # fmt: skip
def test_malformed_table_is_refused_naming_line_and_field(
    tmp_path: Path, name: str, body: bytes, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        read_table(_write(tmp_path, name, body), **FIELDS)


@pytest.mark.parametrize("name", ["t.csv", "t.tsv", "t.jsonl"])
def test_byte_order_mark_is_dropped(tmp_path: Path, name: str) -> None:
    body = _body(name, (b"a", b"b"))
    table = read_table(_write(tmp_path, name, b"\xef\xbb\xbf" + body), **FIELDS)
    assert table.hypotheses["hyp"] == ["a"] and table.references == [["b"]]


@pytest.mark.parametrize("name", ["t.csv", "t.tsv", "t.jsonl", "t.jsonl.gz"])
def test_gzip_table_is_named_as_compressed(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name, gzip.compress(b'{"hyp": "a", "ref": "b"}\n'))
    with pytest.raises(InputError, match="gzip-compressed; decompress it first"):
        read_table(path, **FIELDS)


@pytest.mark.parametrize("name", ["t.csv", "t.tsv", "t.jsonl"])
def test_bad_utf8_names_the_line(tmp_path: Path, name: str) -> None:
    body = _body(name, (b"a", b"b"), (b"\xff", b"b"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ResourceWarning either
        with pytest.raises(InputError, match=r"line 3: not valid UTF-8 \(byte 0xff\)"
                           if name != "t.jsonl" else r"line 2: not valid UTF-8"):  # fmt: skip
            read_table(_write(tmp_path, name, body), **FIELDS)


def test_gzip_text_file_is_named_as_compressed(tmp_path: Path) -> None:
    hyp = _write(tmp_path, "h.txt.gz", gzip.compress(b"a b c\n"))
    ref = _write(tmp_path, "r.txt", b"a b c\n")
    with pytest.raises(InputError, match=r"h\.txt\.gz: gzip-compressed"):
        read_segments(str(hyp), [str(ref)])
    with pytest.raises(InputError, match=r"h\.txt\.gz: gzip-compressed"):
        read_segments(str(ref), [str(hyp)])


def test_encoding_error_leaks_no_open_file(tmp_path: Path) -> None:
    # The reference files were opened but never read: their handles must still be closed
    # (the warning reached users as "unclosed file").
    hyp = _write(tmp_path, "h.txt", b"\xff\n")
    ref = _write(tmp_path, "r.txt", b"a\n")
    code = (
        "import gc, sys\n"
        "from meteor_eval.io import read_segments\n"
        "try:\n"
        f"    read_segments({str(hyp)!r}, [{str(ref)!r}, {str(ref)!r}])\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
        "gc.collect()\n"
    )
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-c", code], capture_output=True, text=True, check=True
    )
    assert "invalid UTF-8" in done.stdout
    assert "ResourceWarning" not in done.stderr and "unclosed" not in done.stderr


@pytest.mark.parametrize("name", ["t.csv", "t.tsv", "t.jsonl"])
def test_encoding_errors_replace_applies_to_tables(tmp_path: Path, name: str) -> None:
    # --encoding-errors replace was accepted with --input and had no effect
    body = _body(name, (b"\xffa", b"b"))
    table = read_table(_write(tmp_path, name, body), **FIELDS, errors="replace")
    assert table.hypotheses["hyp"] == ["\ufffda"]


def test_unknown_errors_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="errors: 'ignore' is invalid"):
        read_table(_write(tmp_path, "t.csv", b"hyp,ref\na,b\n"), **FIELDS, errors="ignore")
