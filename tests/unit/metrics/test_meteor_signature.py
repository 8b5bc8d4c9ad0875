"""The exact signature strings (long and short) of the METEOR flavours."""

from __future__ import annotations

from meteor_eval.metrics.meteor import Meteor, MeteorConfig

RESOURCES = (
    "function-words-en-meteor-1.5-2ae0d5b8,snowball-en-2.2.0-4dd5815b,wordnet-en-3.0-6c86e36c"
)


def test_meteor15_signature_long_and_short() -> None:
    scorer = Meteor(
        MeteorConfig.preset("meteor15", normalization="norm", modules=("exact", "stem", "synonym"))
    )
    assert scorer.signature(1).format() == (
        "meteor|flavour:meteor15|lang:en|task:rank|norm:norm|tok:meteor15|case:lc"
        "|modules:exact+stem+synonym|weights:1.0+0.6+0.8|alpha:0.85|beta:0.2|gamma:0.6"
        f"|delta:0.75|aligner:beam40|resources:{RESOURCES}|nrefs:1|multiref:best"
        "|aggregate:pooled|version:0.1.0"
    )
    assert scorer.signature(1).format(short=True) == (
        "meteor|f:meteor15|l:en|t:rank|n:norm|tok:meteor15|c:lc|m:exact+stem+synonym"
        f"|w:1.0+0.6+0.8|a:0.85|b:0.2|g:0.6|d:0.75|al:beam40|r:{RESOURCES}|nr:1|mr:best"
        "|agg:pooled|v:0.1.0"
    )


def test_paper2005_signature_with_varying_reference_counts() -> None:
    scorer = Meteor(MeteorConfig.preset("paper2005"))
    assert scorer.signature("var").format() == (
        "meteor|flavour:paper2005|lang:en|task:paper2005|norm:lc_only|tok:meteor15|case:lc"
        "|modules:exact+stem+synonym|weights:1.0+1.0+1.0|alpha:0.9|beta:3.0|gamma:0.5"
        "|delta:1.0|aligner:exhaustive"
        "|resources:snowball-porter-en-2.2.0-96ca57bd,wordnet-en-3.0-6c86e36c"
        "|nrefs:var|multiref:best|aggregate:pooled|version:0.1.0"
    )


def test_corpus_signature_says_var_when_reference_counts_differ() -> None:
    scorer = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    result = scorer.corpus_score(["a b", "c"], [["a b"], ["c", "d"]])
    assert result.signature.get("nrefs") == "var"
    assert scorer.corpus_score(["a"], [["a", "b"]]).signature.get("nrefs") == "2"


def test_eval_id_maps_the_signature_to_the_jar() -> None:
    config = MeteorConfig.preset(
        "meteor15", normalization="norm", modules=("exact", "stem", "synonym")
    )
    assert config.eval_id == "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8"


def test_character_mode_shows_in_the_signature() -> None:
    """Before, --characters changed the score but not the signature."""
    words = Meteor(MeteorConfig.preset("meteor15", modules=("exact",)))
    chars = Meteor(MeteorConfig.preset("meteor15", modules=("exact",), characters=True))
    assert "unit" not in words.signature(1).format()
    assert "|case:mixed|unit:char|modules:exact|" in chars.signature(1).format()
    assert "|c:mixed|u:char|m:exact|" in chars.signature(1).format(short=True)
