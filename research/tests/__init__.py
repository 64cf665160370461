"""The studies' tests (collected by ``python build.py test --only cpython``)."""
