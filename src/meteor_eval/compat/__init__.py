"""compat layer of meteor-eval."""
