"""stats layer of meteor-eval."""
