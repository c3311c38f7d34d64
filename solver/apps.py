from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SolverConfig(AppConfig):
    name = "solver"
    verbose_name = _("Solver")

    def ready(self) -> None:
        # Recorded failures are asked "was it winnable?" (campaigns may not import the solver).
        from campaigns import winnable as campaigns_winnable
        from solver.winnable import judge_attempt

        campaigns_winnable.register(judge_attempt)
