"""A group's history out and in: exports (JSON, CSV, BG Stats), imports (check, write, the
long-import job), their pages and API."""
