"""match layer of meteor-eval."""
