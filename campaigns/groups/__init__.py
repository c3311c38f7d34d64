"""Groups, their campaigns and sessions, players, members and invites: services, pages, API."""
