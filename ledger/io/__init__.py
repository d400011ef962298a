"""The ledger's adapters: the files a board, ruleset, decree sheet or record is read from and written to, the
stored events' encoding, and the store on SQLite, PostgreSQL or in memory, around the pure core (ledger/core)."""
