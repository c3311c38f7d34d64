"""Which rules a group plays each clock by: transcribing, the editor, definitions shared
between tables (adopt, report), their pages and API."""
