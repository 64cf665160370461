"""The steps of `python build.py` (build, serve, test, bench), one module each; build.py is the
command line over them and re-exports their names (`import build; build.make_server(...)`).
See docs/build.md, "The build's code"."""
