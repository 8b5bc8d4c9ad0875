"""pycocoevalcap's ``bleu`` package, without Java."""
