"""pycocoevalcap's ``cider`` package, without Java."""
