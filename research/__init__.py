"""Studies of the computer players and of the engine's speed, apart from the product: what they
ask, how to run them and what they found is in research/README.md. Nothing in ``py_engine``
imports this package; the site's wheel never holds it. Run a study from the repository's root:
``python -m research.NAME``."""
