"""The write side of whispers: board and ruleset models, the rules engine, events and the store."""
