"""Playing a campaign: its state, recording / skipping / retrieving / undoing, the group page
and its API."""
