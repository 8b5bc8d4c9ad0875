"""Hand-checked values of the shipped WordNet 3.0 views.

Offsets below were read off Debian's ``/usr/share/wordnet/index.*`` and ``data.*`` (nouns and
the adjectives quoted here sit before the first Debian/Princeton offset difference, so their
offsets are the same in both) and the exception lists ``noun.exc``/``verb.exc``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from wordnet_build.meteor_binary import build_meteor_binary
from wordnet_build.text_form import merged_synsets

from meteor_eval.errors import ResourceError
from meteor_eval.resources.registry import data_file, file_sha256
from meteor_eval.resources.wordnet import (
    METEOR_BINARY_FILE,
    METEOR_MORPH_RULES,
    NLTK_BINARY_FILE,
    WORDNET_FILES,
    MeteorWordNet,
    meteor_wordnet,
    nltk_wordnet,
    wordnet_spec,
)
from meteor_eval.resources.wordnet.meteor import _SynsetTable, meteor_exceptions
from meteor_eval.resources.wordnet.shipped import meteor_sections, read_meteor_binary

if TYPE_CHECKING:
    from wordnet_build.text_form import TextForm

CAT_NOUN = 2121620  # data.noun: "cat true_cat"
MISTER = 6341340  # data.noun: "Mister Mr Mr."
BIG_LARGE = 1382086  # data.adj: head synset "large big"


def test_synsets_lists_a_word_with_all_parts_of_speech() -> None:
    cat = meteor_wordnet().synsets("cat")
    assert len(cat) == 10  # 8 noun senses + 2 verb senses in index.noun / index.verb
    assert CAT_NOUN in cat


def test_mr_with_dot_is_a_word() -> None:
    assert meteor_wordnet().synsets("mr.") == frozenset({MISTER})
    assert meteor_wordnet().synsets("mr") == frozenset({MISTER})


def test_plural_gets_the_synsets_of_its_base() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.morph("cats") == "cat"
    assert wordnet.synonym_set("cats") >= wordnet.synsets("cat")


def test_big_and_large_share_a_synset() -> None:
    wordnet = meteor_wordnet()
    assert BIG_LARGE in wordnet.synonym_set("big") & wordnet.synonym_set("large")


def test_exception_list_maps_went_to_go() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.exceptions["went"] == ("go",)
    assert wordnet.synonym_set("went") == wordnet.synsets("went") | wordnet.synsets("go")


def test_exception_with_two_bases_unions_both() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.exceptions["axes"] == ("ax", "axis")
    expected = wordnet.synsets("axes") | wordnet.synsets("ax") | wordnet.synsets("axis")
    assert wordnet.synonym_set("axes") == expected


def test_exception_blocks_the_suffix_rules() -> None:
    # "geese" is listed (-> goose); the rules would have tried "gees"/"geese" minus suffixes.
    wordnet = meteor_wordnet()
    assert wordnet.synonym_set("geese") == wordnet.synsets("goose")


def test_ful_words_get_no_base() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.morph("handful") == ""
    assert wordnet.morph("handfuls") == "handful"
    assert wordnet.synonym_set("handful") == wordnet.synsets("handful")


def test_ss_ending_and_short_words_are_their_own_base() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.morph("class") == "class"
    assert wordnet.morph("as") == "as"
    assert wordnet.morph("") == ""
    assert wordnet.synonym_set("") == frozenset()


def test_short_word_rule_counts_utf16_units() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.morph("\U0001d49c") == "\U0001d49c"  # 1 code point, 2 UTF-16 units
    assert wordnet.morph("\U0001d49cs") == ""  # 3 UTF-16 units: rules run, nothing found


def test_rules_are_tried_in_order_first_hit_wins() -> None:
    wordnet = MeteorWordNet({"bus": (1,), "bu": (2,), "buse": (3,)}, {})
    assert wordnet.morph("buses") == "buse"  # "s" -> "" comes before "ses" -> "s"
    assert MeteorWordNet({"bus": (1,)}, {}).morph("buses") == "bus"
    assert len(METEOR_MORPH_RULES) == 20


def test_lookups_are_case_sensitive() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.synsets("Cat") == frozenset()
    assert wordnet.synonym_set("Cats") == frozenset()


def test_synonym_set_is_cached() -> None:
    wordnet = meteor_wordnet()
    assert wordnet.synonym_set("dogs") is wordnet.synonym_set("dogs")


def test_views_pickle_as_the_shared_instance() -> None:
    assert pickle.loads(pickle.dumps(meteor_wordnet())) is meteor_wordnet()
    assert pickle.loads(pickle.dumps(nltk_wordnet())) is nltk_wordnet()


def test_nltk_lower_cases_and_keeps_lemma_case() -> None:
    names = nltk_wordnet().lemma_names("Dogs")
    assert {"dog", "Canis_familiaris", "frank", "hot_dog"} <= names


def test_nltk_synsets_order_follows_pos_then_sense() -> None:
    found = nltk_wordnet().synsets("cat")
    assert found[0] == ("n", CAT_NOUN)
    assert [pos for pos, _ in found] == ["n"] * 8 + ["v"] * 2


def test_nltk_morphy_uses_ves_rule_and_exceptions() -> None:
    wordnet = nltk_wordnet()
    assert wordnet.morphy("wolves", "n") == "wolf"
    assert wordnet.morphy("churches") == "church"
    assert wordnet.morphy("went") == "go"
    assert wordnet.morphy("hardrock", "r") is None


def test_nltk_satellites_and_syntactic_markers() -> None:
    wordnet = nltk_wordnet()
    assert wordnet.synsets("galore") == [("s", 1552162), ("s", 14358)]
    assert wordnet.lemma_names("galore") == frozenset({"galore", "abounding"})  # "galore(ip)"
    big_a = wordnet.synsets("big", "a")
    assert big_a[0] == ("a", BIG_LARGE)
    assert wordnet.synsets("big", "s") == [item for item in big_a if item[0] == "s"]


def test_nltk_unknown_word_has_no_synsets() -> None:
    assert nltk_wordnet().synsets("qwxzv") == []
    assert nltk_wordnet().lemma_names("qwxzv") == frozenset()


def test_spec_identifies_the_shipped_files(wordnet_text_form: TextForm) -> None:
    spec = wordnet_spec()
    assert (spec.name, spec.language, spec.version, spec.licence) == (
        "wordnet",
        "en",
        "3.0",
        "WordNet-3.0",
    )
    assert spec.short_id.startswith("wordnet-en-3.0-")
    manifest = json.loads(data_file("wordnet", "manifest.json").read_text(encoding="utf-8"))
    listed = "".join(f"{name} {manifest['text_form'][name]}\n" for name in WORDNET_FILES)
    assert spec.sha256 == hashlib.sha256(listed.encode()).hexdigest()
    # The text form is not shipped: the one regenerated from the binary view has those digests.
    for name, data in wordnet_text_form.files().items():
        assert hashlib.sha256(data).hexdigest() == manifest["text_form"][name]
    for name in (METEOR_BINARY_FILE, NLTK_BINARY_FILE):
        assert file_sha256(data_file("wordnet", name)) == manifest["outputs"][name]


def test_only_the_binary_views_ship() -> None:
    shipped = {path.name for path in data_file("wordnet", "manifest.json").parent.iterdir()}
    assert shipped == {"LICENSE", "manifest.json", METEOR_BINARY_FILE, NLTK_BINARY_FILE}


def test_binary_meteor_view_is_current_and_equals_the_text_index(
    wordnet_text_form: TextForm,
) -> None:
    # The shipped compact table is what build_meteor_binary derives from the index and
    # exception lists of the text form (deterministic), and reading it gives the same word ->
    # synsets table as parsing the text.
    form = wordnet_text_form
    shipped = data_file("wordnet", METEOR_BINARY_FILE).read_bytes()
    assert build_meteor_binary(form.index, form.exceptions) == shipped
    table = _SynsetTable(meteor_sections())
    parsed = merged_synsets(form.text("index.tsv.gz"))
    assert len(table) == len(parsed) == 147306
    assert dict(table.items()) == parsed
    assert table.get("not-a-wordnet-word") is None
    assert "dog" in table and 3 not in table
    assert "went" not in table  # an inflected form is a key of the binary form, not a word


def test_exceptions_come_from_the_text_form(wordnet_text_form: TextForm) -> None:
    expected = meteor_exceptions(wordnet_text_form.text("exceptions.tsv.gz"))
    assert dict(meteor_wordnet().exceptions) == expected
    assert len(expected) == 5940


def test_old_module_re_exports_the_package() -> None:
    from meteor_eval.resources import synonyms, wordnet

    assert synonyms.__all__ == wordnet.__all__
    for name in wordnet.__all__:
        assert getattr(synonyms, name) is getattr(wordnet, name)


def test_stale_binary_view_is_refused(
    wordnet_text_form: TextForm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Built from another index or other exception lists than manifest.json describes.
    monkeypatch.setenv("METEOR_EVAL_CACHE", str(tmp_path / "cache"))
    form = wordnet_text_form
    other_index = gzip.compress(form.text("index.tsv.gz").encode() + b"n\tzzzz\t1740\n", mtime=0)
    other_exceptions = gzip.compress(b"n\tzzzz\tz\n", mtime=0)
    stale = tmp_path / METEOR_BINARY_FILE
    for index_gz, exceptions_gz in ((other_index, form.exceptions), (form.index, other_exceptions)):
        stale.write_bytes(build_meteor_binary(index_gz, exceptions_gz))
        with pytest.raises(ResourceError, match=f"{stale}.*checksum mismatch"):
            read_meteor_binary(stale)
