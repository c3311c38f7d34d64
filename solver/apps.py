from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SolverConfig(AppConfig):
    name = "solver"
    verbose_name = _("Solver")

    def ready(self) -> None:
        # Recorded failures are asked "was it winnable?" (campaigns may not import the solver).
        from campaigns import winnable as campaigns_winnable
        from campaigns.history.sections import register_section
        from solver import history
        from solver.winnable import judge_attempt

        campaigns_winnable.register(judge_attempt)
        # A group's exported history carries its hints (campaigns.history.sections).
        register_section(
            history.SECTION, history.export_hints, history.check_hints, history.write_hints
        )
