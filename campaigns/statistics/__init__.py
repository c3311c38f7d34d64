"""A group's statistics: the computation, the community figures, charts, the page, the API and
its CSV."""
