"""text layer of meteor-eval."""
