"""The maintainers' desk: pending entries and decisions, flags, reported rows, releases, the score release policy,
service health, likely copies and probing."""
