"""pytest plugin (entry point ``pytest11``): the Longhouse stack in containers for users' tests."""
