"""WordNet's morphy detachment rules ``(suffix, replacement)``, as the jar and NLTK read them.

Both take them from WordNet's ``morph.c``: the verb and adjective rules are the same lists; the
noun rules differ (NLTK adds ``ves -> f``), so each view keeps its own noun list.
"""

from __future__ import annotations

from typing import Final

Rules = tuple[tuple[str, str], ...]

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
