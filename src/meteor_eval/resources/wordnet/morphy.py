"""WordNet's morphy detachment rules ``(suffix, replacement)``, as the jar and NLTK read them.

Both take them from WordNet's ``morph.c``; NLTK's noun list adds ``ves -> f`` after ``ses -> s``
(:data:`NLTK_NOUN_RULES`).
"""

from __future__ import annotations

from typing import Final

Rules = tuple[tuple[str, str], ...]

#: Noun rules, in morphy's order (the jar's list).
NOUN_RULES: Final[Rules] = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
)

#: NLTK 3.10's noun rules: :data:`NOUN_RULES` with ``ves -> f`` after ``ses -> s``.
NLTK_NOUN_RULES: Final[Rules] = (*NOUN_RULES[:2], ("ves", "f"), *NOUN_RULES[2:])

#: Verb rules, in morphy's order.
VERB_RULES: Final[Rules] = (
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
)

#: Adjective (and adjective satellite) rules, in morphy's order.
ADJ_RULES: Final[Rules] = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))
