"""The built-in bots' knowledge of gnomes: its evaluation, its scripted policy and its expert."""
