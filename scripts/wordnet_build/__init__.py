"""Building the shipped WordNet 3.0 views (used by ``scripts/build_wordnet.py`` and the tests).

* :mod:`.debian`: Debian's ``wordnet-base`` files -> the canonical text form, with synset
  offsets restored to Princeton's.
* :mod:`.text_form`: the text form's three gzip'd files, the plain tables parsed from them, and
  the text form regenerated from the shipped NLTK view (the text form is not shipped).
* :mod:`.keytable`: the writer of the CRC-32 key tables both binary views use.
* :mod:`.meteor_binary` and :mod:`.nltk_binary`: the two binary views, built deterministically
  from the text form.

Nothing here runs at scoring time; the library only reads what this writes
(:mod:`meteor_eval.resources.wordnet`).
"""
