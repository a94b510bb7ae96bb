"""What the components of one crawler share: how requests ended, and the report of it."""
