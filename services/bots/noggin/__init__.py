"""The built-in bots' knowledge of noggin: its evaluation, its scripted policy and its expert."""
