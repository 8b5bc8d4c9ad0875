"""Fixtures of the resource tests: the WordNet text form, regenerated from the shipped data.

The canonical text form of WordNet (``index.tsv.gz``, ``synsets.tsv.gz``,
``exceptions.tsv.gz``) is not shipped; the build code in ``scripts/wordnet_build`` regenerates it
byte for byte from the shipped NLTK view, and the tests check its digests against the manifest.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

if TYPE_CHECKING:
    from wordnet_build.text_form import TextForm


@pytest.fixture(scope="session")
def wordnet_text_form() -> TextForm:
    """The three text-form files, regenerated from the shipped ``nltk-wordnet.bin.xz``."""
    from wordnet_build.text_form import text_form_from_nltk_view

    from meteor_eval.resources.wordnet.shipped import nltk_sections

    return text_form_from_nltk_view(nltk_sections())
