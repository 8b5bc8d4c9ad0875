"""pycocoevalcap's ``tokenizer`` package, without Java."""
