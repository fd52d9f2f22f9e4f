"""One module per schema revision, oldest first; each only adds."""
