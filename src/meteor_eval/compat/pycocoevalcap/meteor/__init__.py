"""pycocoevalcap's ``meteor`` package, without Java."""
