"""integrations layer of meteor-eval."""
