"""Resource Hog (``resource-hog-actions-and-events.txt``): so far its content as checked data
(:mod:`.content`) and its rules index; the game itself is not registered yet, so no process
offers it. The design it is built to is in ``docs/house-rules.md`` (Resource Hog).
"""
