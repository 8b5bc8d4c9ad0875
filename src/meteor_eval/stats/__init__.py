"""Sufficient statistics: records that add up, from which scores are computed."""
