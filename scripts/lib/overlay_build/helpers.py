"""Small helpers of every step: running a command, writing a file only when
its content changes, and replacing a symbolic link."""

import os
import shlex
import subprocess

from util import die


def run(cmd, **kw):
    res = subprocess.run(cmd, **kw)
    if res.returncode != 0:
        die("command failed (%d): %s" % (res.returncode, " ".join(map(shlex.quote, cmd))))
    return res


def write_if_changed(path, data):
    if not os.path.exists(path) or open(path, "rb").read() != data:
        with open(path, "wb") as f:
            f.write(data)


def symlink(target, link):
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)
