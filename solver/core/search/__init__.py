"""The search for a plan: the plan's genes, the searches and their runs, the choice between
the best plans, a clock's own prior, the colour patterns that play alike (``symmetry``) and
the typed result of a hint (``hint_result``). Stands on the table, the words and the oracle."""
