"""The overlay build's state: what main() sets at run time (--stock,
--series-prefix) and what one step records for a later one. The other modules
read it as state.X, so they see the values set after they were imported."""

# --stock: the same build with no patch at all, the stock toolchain of the
# base (Debian's objects, relinked, with a DeviceRTL built from Debian's
# source by Debian's clang) for the comparisons of the tests and benchmarks,
# where Debian ships no DeviceRTL (LLVM 22).
STOCK = False
# --series-prefix N: only the first N patches (scripts/bisect-series).
SERIES_PREFIX = None


# Sources compiled with all of the regenerated diagnostic tables (the
# directory diag_table_dirs() names first on their include path); the other
# compiles see only the tables of the components whose enumerators changed,
# so that their preprocessed text, and ccache's result, stays Debian's.
# diagtables.diagnostic_tables() fills it; ninja.compile_flags() reads it.
DIAG_FULL_TABLE_TUS = set()
