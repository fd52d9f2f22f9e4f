"""The number reader: a command's words, units and numbers read the way their writer meant them, in the
user's locale, by ordered rule tables (`docs/reading.md`)."""
