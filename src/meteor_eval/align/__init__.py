"""align layer of meteor-eval."""
