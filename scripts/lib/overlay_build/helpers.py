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


def cmake_build_command(d, cmake_args, target, jobs, launcher):
    """The shell command of a generated-build rule that configures a CMake
    project in `d` (its output in d/cmake.log) and builds `target` there.
    With ccache (`launcher`: write_rules' "VAR=... ccache " prefix), the
    project's compiles go through it: the caller passes
    -DCMAKE_<LANG>_COMPILER_LAUNCHER=ccache, and CMake and ninja get the
    launcher's environment."""
    env = launcher.replace(" ccache ", " ") if launcher else ""
    return "mkdir -p %s && %s%s >%s/cmake.log && %sninja -C %s -j%d %s" % (
        d, env, " ".join(map(shlex.quote, cmake_args)), d, env, d, jobs, target)


def symlink(target, link):
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)
