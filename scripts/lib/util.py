"""Messages shared by the ompds scripts."""

import sys


def die(msg):
    """Print an error that says what to do, and exit with status 1."""
    sys.stderr.write("error: %s\n" % msg)
    sys.exit(1)


def note(msg):
    """Print a progress line."""
    sys.stderr.write("-- %s\n" % msg)
    sys.stderr.flush()
