"""The silent table: the plan the players agree aloud (``plans``), what one player may see
(``view``), the players' decision rules and conventions (``agents``, ``exact``), the table's
rules as the compiled engine reads them (``table_rules``), and the games themselves
(``simulate``: the reference engine and the compiled one in ``agents_fast``).
Stands on ``rules`` alone."""
