"""A Gymnasium environment for Pyramid solitaire: ``Pyramide-v0`` (``pip install 'pyramide[gym]'``).

::

    import gymnasium
    import pyramide_cli.gym  # registers Pyramide-v0

    env = gymnasium.make("Pyramide-v0", rules="T")
    observation, info = env.reset(seed=0)
    action = env.action_space.sample(mask=info["action_mask"])

``gymnasium.make("pyramide_cli.gym:Pyramide-v0")`` imports this module itself.  The spaces, the
observation's encoding, the reward and the options are described in ``docs/bots.md``; the action
table is :mod:`.actions`, the observation :mod:`.observation`.  Nothing on the command line's path
imports this package.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - the extra is installed wherever the suite runs
    raise ImportError("the Pyramide environment needs Gymnasium: pip install 'pyramide[gym]'") from error

from .actions import ACTION_COUNT, ACTIONS, DRAW_ACTION, RECYCLE_ACTION, action_of
from .env import PyramideEnv
from .observation import OBSERVATION_SIZE

ENV_ID = "Pyramide-v0"

__all__ = ["ACTIONS", "ACTION_COUNT", "DRAW_ACTION", "ENV_ID", "OBSERVATION_SIZE", "PyramideEnv", "RECYCLE_ACTION",
           "action_of"]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="pyramide_cli.gym.env:PyramideEnv")
