"""The project's spiders."""
