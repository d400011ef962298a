"""The pure core: the board, rulesets and decrees as data, the game's state, its commands and events, the rules
engine and scoring. Nothing here reads a file, touches a store or a terminal (a contract in pyproject.toml)."""
