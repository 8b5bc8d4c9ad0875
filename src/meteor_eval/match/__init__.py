"""Matching stages: each proposes candidate matches; the aligner chooses."""
