"""The read side of whispers: projections folded from the event store."""
