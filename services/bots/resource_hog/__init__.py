"""The built-in bots' knowledge of resource_hog: its evaluation, its scripted policy and its expert."""
