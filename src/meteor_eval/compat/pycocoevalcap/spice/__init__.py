"""pycocoevalcap's ``spice`` package, without Java."""
