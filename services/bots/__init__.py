"""Built-in bots that play through the gateway like any client (see :mod:`.random_bot`)."""
