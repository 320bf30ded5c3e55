"""The stock results cache of lit_suites.py (--cache DIR).

A suite's results are kept in DIR/<suite>-<key>.json and reused while the key
is the same. The key hashes what the results depend on: the name, size and
modification time of every tool in the bin directory, the --ptxas value, the
given scripts (lit_suites.py, which writes the site configurations), the
tree's lit (llvm/utils/lit/lit) and its lit configurations, and the contents
of the suite's test files and directories, of the Inputs directories beside
its test files and of the lit.local.cfg files above them. It is meant for the
stock tools, which change only with Debian's packages."""

import glob
import hashlib
import json
import os


def tree_files(root):
    """Every file under ROOT (a file: itself), sorted."""
    if os.path.isfile(root):
        return [root]
    found = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames.sort()
        found += [os.path.join(dirpath, f) for f in sorted(files)]
    return found


def suite_key(src, bindir, name, paths, ptxas, test_trees, scripts):
    """What a suite's results depend on, hashed."""
    h = hashlib.sha256()
    h.update(repr((name, paths, ptxas)).encode())
    for tool in sorted(os.listdir(bindir)):
        try:
            st = os.stat(os.path.join(bindir, tool))
        except OSError:
            continue  # a dangling link
        h.update(("%s %d %d\n" % (tool, st.st_size, int(st.st_mtime))).encode())
    files = list(scripts) + tree_files(os.path.join(src, "llvm/utils/lit/lit"))
    for tree in test_trees:
        files += glob.glob(os.path.join(src, tree, "lit.*cfg.py*"))
    for p in paths:
        full = os.path.join(src, p)
        files += tree_files(full)
        d = os.path.dirname(full) if os.path.isfile(full) else full
        if os.path.isfile(full) and os.path.isdir(os.path.join(d, "Inputs")):
            files += tree_files(os.path.join(d, "Inputs"))
        while d.startswith(src + "/"):
            cfg = os.path.join(d, "lit.local.cfg")
            if os.path.exists(cfg):
                files.append(cfg)
            d = os.path.dirname(d)
    for f in sorted(set(files)):
        h.update(os.path.relpath(f, src).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def entry(cache, name, key):
    return os.path.join(cache, "%s-%s.json" % (name, key))


def load(cache, name, key):
    """The recorded {test: code} of the suite, or None."""
    path = entry(cache, name, key)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["results"]


def store(cache, name, key, results, seconds):
    os.makedirs(cache, exist_ok=True)
    path = entry(cache, name, key)
    with open(path + ".tmp", "w") as f:
        json.dump({"results": results, "time_s": round(seconds, 1)}, f)
    os.replace(path + ".tmp", path)
