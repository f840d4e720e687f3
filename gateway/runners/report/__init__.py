"""``company-gateway report``: runs of episode records as a static site a person reads in a browser, and ATIF.

- :mod:`.runs`: reading runs and their figures (overview, task table, comparison);
- :mod:`.episode`: one episode as its page shows it;
- :mod:`.site`: writing the pages, assets and data files;
- :mod:`.atif`: episodes as ATIF trajectories, the format Harbor and NeMo Gym write.
"""

from gateway.runners.report.atif import ATIF_VERSION, to_atif, write_atif
from gateway.runners.report.runs import Run, load_run
from gateway.runners.report.site import SiteStats, build_report

__all__ = ["ATIF_VERSION", "Run", "SiteStats", "build_report", "load_run", "to_atif", "write_atif"]
