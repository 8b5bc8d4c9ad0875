"""WordNet 3.0 for the synonym matchers: the METEOR 1.5 view and the NLTK view.

One shipped resource (``data/wordnet/``, built by ``scripts/build_wordnet.py`` from Debian's
``wordnet-base`` files, with synset offsets restored to those of Princeton's WordNet 3.0 release)
serves two readers:

* :class:`MeteorWordNet` (:mod:`.meteor`) reproduces the official METEOR 1.5 jar's synonym module:
  word -> integer synset sets, S(t) with the jar's exception lookup and its 20 suffix rules;
  :func:`meteor_wordnet_from_dir` reads a folder in the jar's format instead (its ``-d``).
* :class:`NltkWordNet` (:mod:`.nltk`) reproduces ``nltk.corpus.wordnet.synsets(word)`` of
  NLTK 3.10 and the lemma names NLTK's METEOR uses.

The data ships once, as the two binary views the readers load in milliseconds
(:mod:`.binary` parses them, :mod:`.keytable` finds their keys), with ``manifest.json`` and the
licence. Their canonical text form is not shipped: its digests in the manifest give the
resource's identity (:func:`wordnet_spec`, :mod:`.shipped`) and each binary must match them.

Where we differ from the tools: nothing in the results. The jar builds its table from
``index.sense``, NLTK reads the dictionary files at run time; we ship one derived copy.

References:
    Miller, G. A. (1995). WordNet: a lexical database for English. CACM 38(11).
    Denkowski, M. and Lavie, A. (2014). Meteor Universal. WMT.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meteor_eval._lazy import lazy_names

if TYPE_CHECKING:
    from meteor_eval.resources.wordnet.binary import METEOR_BINARY_FILE, NLTK_BINARY_FILE
    from meteor_eval.resources.wordnet.meteor import (
        METEOR_MORPH_RULES,
        MeteorWordNet,
        meteor_wordnet,
        meteor_wordnet_from_dir,
    )
    from meteor_eval.resources.wordnet.nltk import (
        NLTK_SUBSTITUTIONS,
        NltkWordNet,
        WordNetPos,
        nltk_wordnet,
    )
    from meteor_eval.resources.wordnet.shipped import WORDNET_FILES, wordnet_spec

# Public name -> the module that defines it, imported when the name is first used: the NLTK
# flavour needs the NLTK view only, METEOR 1.5 the METEOR view only (each view's module and
# its tables cost a new process a few milliseconds to import).
_LAZY: dict[str, str] = {
    **dict.fromkeys(("METEOR_BINARY_FILE", "NLTK_BINARY_FILE"), f"{__name__}.binary"),
    **dict.fromkeys(
        ("METEOR_MORPH_RULES", "MeteorWordNet", "meteor_wordnet", "meteor_wordnet_from_dir"),
        f"{__name__}.meteor",
    ),
    **dict.fromkeys(
        ("NLTK_SUBSTITUTIONS", "NltkWordNet", "WordNetPos", "nltk_wordnet"), f"{__name__}.nltk"
    ),
    **dict.fromkeys(("WORDNET_FILES", "wordnet_spec"), f"{__name__}.shipped"),
}


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)


__all__ = [
    "METEOR_BINARY_FILE",
    "METEOR_MORPH_RULES",
    "NLTK_BINARY_FILE",
    "NLTK_SUBSTITUTIONS",
    "WORDNET_FILES",
    "MeteorWordNet",
    "NltkWordNet",
    "WordNetPos",
    "meteor_wordnet",
    "meteor_wordnet_from_dir",
    "nltk_wordnet",
    "wordnet_spec",
]
