"""pycocoevalcap's ``rouge`` package, without Java."""
