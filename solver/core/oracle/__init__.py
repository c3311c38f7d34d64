"""Perfect information: the oracle (can these 12 cards pass, with a witness layout), the exact
odds over every deal the colours allow, and "was it winnable?" for a finished layout. The
numba kernels live in ``compiled_kernel``; ``compiled`` turns a clock into their arrays.
Stands on ``rules`` alone."""
