from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SolverConfig(AppConfig):
    name = "solver"
    verbose_name = _("Solver")
