"""Per-viewer views of the state and the events: the names the faces have always imported.

The policy and the views themselves live in projections/visibility.py; this module only keeps their old
address, so that code written against it (a branch in flight, a script) still finds them.
"""

from whispers.projections.visibility import (
    NotPlaying,
    check_viewer,
    event_view,
    state_view,
)

__all__ = ["NotPlaying", "check_viewer", "event_view", "state_view"]
