"""The modules of the overlay build, one job each (docs/building.md has the
map). scripts/lib/overlay.py is its entry point and re-exports their names."""
