"""The whispers command line: thin click commands over the ledger and the projections."""
