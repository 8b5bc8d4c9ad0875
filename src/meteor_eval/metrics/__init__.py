"""metrics layer of meteor-eval."""
