"""The solver's two versions: what a stored answer (a finished hint, a plan-book entry, a
clock's prior) was computed by, and so whether it may still be offered.

``ENGINE_VERSION``: the meaning of a plan. Bump it (by one) in the same commit as any change
to how a plan is played or scored — the simulated players and their conventions, the
table's rules, the slip model, how a pass is counted, the odds, what a plan's JSON says —
anything that would make a stored rate or stored odds wrong for the plan stored beside
them. It is part of every hint's input hash, of the plan book's key and of a clock prior's
key: every stored answer of the old engine is retired at once, never offered again, and
the book is filled anew (``manage.py prefill_plans``, the beat task).

``SEARCH_VERSION``: which plan is found. Bump it for a change to the search alone — its
schedule, the genes' ranges or priors, the choice between plans, the screen — after which a
stored plan is still played and scored as stored, only perhaps no longer the best the
search would find. It is kept on each plan-book entry (``PlanBookEntry.search_version``),
never in a key: the stored plans keep answering at once, and the prefill searches them
again in the background, the most asked first (``solver.prefill``). A change to the words
alone needs no bump at all: the words are written when a hint is read.

When unsure, bump the engine: an answer that is needlessly recomputed costs minutes, one
that shows a wrong rate misleads a table.

Until version 26 there was one version, ``SOLVER_VERSION``, bumped for both kinds of
change. Its last value, 26, is where both start: the keys of today's entries, hints and
priors hashed the number 26 under the name "solver", which is the name the engine version
keeps in every key (so those keys still match), and migration 0009 gives every existing
entry search version 26 (see there).
"""

ENGINE_VERSION = 26
SEARCH_VERSION = 26
