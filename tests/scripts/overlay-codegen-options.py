#!/usr/bin/env python3
"""The overlay recompiles few sources for options that a series adds to
CodeGenOptions.def in bits the record layout leaves unused
(scripts/lib/overlay_build/codegenopts.py): the sources that name a new
option or expand the option lists. An option that moves a field, grows the
record's data, edits an existing entry, or comes with a change to
CodeGenOptions.h makes every includer recompile (None). Runs on small
synthetic trees; the layouts come from Debian's clang."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import overlay  # noqa: E402

DEF = "clang/include/clang/Basic/CodeGenOptions.def"
HEADER = overlay.CGO_HEADER
DEF_HEAD = """#ifndef CODEGENOPT
#error Define the CODEGENOPT macro to handle code generation options
#endif
#ifndef VALUE_CODEGENOPT
#define VALUE_CODEGENOPT(Name, Bits, Default, Compatibility) \\
CODEGENOPT(Name, Bits, Default, Compatibility)
#endif
#ifndef ENUM_CODEGENOPT
#define ENUM_CODEGENOPT(Name, Type, Bits, Default, Compatibility) \\
CODEGENOPT(Name, Bits, Default, Compatibility)
#endif
"""
DEF_TAIL = """#undef CODEGENOPT
#undef ENUM_CODEGENOPT
#undef VALUE_CODEGENOPT
"""
# Bits 0-2 of the first unit, a 32-bit option in the second, the enumeration
# option in bits 0-1 of the third: 29 bits of the first unit are unused.
# The line comments of the first and the last entry hold "/*" and "*/": an
# edit between them must still be seen.
A = "CODEGENOPT(Alpha, 1, 0, Benign) ///< The first option (see /* below).\n"
B = "CODEGENOPT(Beta, 2, 0, Benign)\n"
BIG = "VALUE_CODEGENOPT (Big, 32, 0, Benign)\n"
E = "ENUM_CODEGENOPT(Kind, int, 2, 0, Benign) // (the */ above)\n"
NEW = "/// A new option.\nCODEGENOPT(NewOpt, 1, 0, Benign)\n"
BASE = A + B + BIG + E
OTHER = {
    HEADER: """#include <string>
namespace clang {
class CodeGenOptionsBase {
public:
#define CODEGENOPT(Name, Bits, Default, Compatibility) unsigned Name : Bits;
#define ENUM_CODEGENOPT(Name, Type, Bits, Default, Compatibility)
#include "clang/Basic/CodeGenOptions.def"
protected:
#define CODEGENOPT(Name, Bits, Default, Compatibility)
#define ENUM_CODEGENOPT(Name, Type, Bits, Default, Compatibility) unsigned Name : Bits;
#include "clang/Basic/CodeGenOptions.def"
};
class CodeGenOptions : public CodeGenOptionsBase {
public:
  std::string CodeModel;
};
} // namespace clang
""",
    "clang/lib/Basic/CMakeLists.txt": "add_clang_library(clangBasic CodeGenOptions.cpp)\n",
    "clang/lib/Basic/CodeGenOptions.cpp":
        '#include "clang/Basic/CodeGenOptions.h"\n'
        '#define CODEGENOPT(Name, Bits, Default, Compatibility) Name = Default;\n'
        '#include "clang/Basic/CodeGenOptions.def"\n',
    "clang/lib/CodeGen/Uses.cpp":
        '#include "clang/Basic/CodeGenOptions.h"\nbool f(clang::CodeGenOptions &O) '
        '{ return O.NewOpt; }\n',
    "clang/lib/CodeGen/Other.cpp":
        '#include "clang/Basic/CodeGenOptions.h"\nbool g(clang::CodeGenOptions &O) '
        '{ return O.Beta; }\n',
    "clang/lib/CodeGen/Setter.cpp":
        '#include "clang/Basic/CodeGenOptions.h"\nvoid j(clang::CodeGenOptions &O) '
        '{ O.setNewOpt(1); }\n',
    "clang/lib/CodeGen/Accessor.cpp":
        '#include "clang/Basic/CodeGenOptions.h"\nint h() { return getNewOpt(); }\n',
    "clang/include/clang/Basic/Uses.h":
        '#include "clang/Basic/CodeGenOptions.h"\ninline bool i(clang::CodeGenOptions &O) '
        '{ return O.NewOpt; }\n',
}


def tree(root, options, header_extra=""):
    files = dict(OTHER, **{DEF: DEF_HEAD + options + DEF_TAIL})
    files[HEADER] = files[HEADER].replace("public:\n  std::string",
                                          "public:\n" + header_extra + "  std::string")
    for rel, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


def run(options, header_extra=""):
    with tempfile.TemporaryDirectory() as tmp:
        base, src = os.path.join(tmp, "base"), os.path.join(tmp, "src")
        tree(base, BASE)
        tree(src, options, header_extra)
        headers = {DEF} | ({HEADER} if header_extra else set())
        res = overlay.codegen_option_entries(
            src, base, overlay.scan_includes(src),
            lambda t: ["-std=c++17", "-I" + os.path.join(t, "clang/include")], headers)
        return None if res is None else (sorted(res[0]), sorted(res[1]))


def main():
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append("%s: got %r, want %r" % (what, got, want))

    few = (["clang/include/clang/Basic/Uses.h"],
           ["clang/lib/Basic/CodeGenOptions.cpp", "clang/lib/CodeGen/Accessor.cpp",
            "clang/lib/CodeGen/Setter.cpp", "clang/lib/CodeGen/Uses.cpp"])
    expect("a 1-bit option in the unused bits before a 32-bit one",
           run(A + B + NEW + BIG + E), few)
    expect("a 1-bit option after the last enumeration option, in its last byte",
           run(BASE + "ENUM_CODEGENOPT(NewOpt, int, 1, 0, Benign)\n"), few)
    expect("nothing added", run(BASE),
           ([], ["clang/lib/Basic/CodeGenOptions.cpp"]))
    expect("an option that moves the enumeration option", run(BASE.replace(E, NEW + E)),
           None)
    expect("a 32-bit option that moves the next one",
           run(A + B + "VALUE_CODEGENOPT(NewOpt, 32, 0, Benign)\n" + BIG + E), None)
    expect("an enumeration option that grows the record's data",
           run(BASE + "ENUM_CODEGENOPT(NewOpt, int, 8, 0, Benign)\n"), None)
    expect("an existing option made wider", run(A + B.replace("2", "3") + BIG + E), None)
    expect("an existing option's default changed", run(A + B.replace(", 0,", ", 1,") + BIG + E),
           None)
    expect("two existing options swapped", run(B + A + BIG + E), None)
    expect("a #define added beside a new option",
           run(A + B + NEW + "#define BETA_BITS 2\n" + BIG + E), None)
    expect("CodeGenOptions.h changed too",
           run(A + B + NEW + BIG + E, header_extra="  enum class NewKind { X };\n"), None)
    if failures:
        print("\n".join(failures))
        return 1
    print("code generation options: an option in unused bits recompiles its users; "
          "any other change recompiles every includer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
