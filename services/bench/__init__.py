"""Benchmarks and measures of the engine, the stack and the bots (``make bench``, ``make bench-bots``,
``make balance``, ``make bench-peers``): tools on top of the stack, which nothing else imports."""
