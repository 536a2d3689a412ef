"""The rules of Diamant: pure, synchronous, no I/O, seeded randomness.

- :mod:`.cards`: the cards and the three rule sets;
- :mod:`.config`: a game's fixed settings (:class:`~.config.GameConfig`), a value kept
  as JSON;
- :mod:`.game`: a game's state (:class:`~.game.Game`), built from its config and
  stepped by reveals and decisions;
- :mod:`.view`: what one player (or a spectator) may know of a game;
- :mod:`.events`: what each step did, for screens and logs;
- :mod:`.record`: game records (``diamant-record/1``, RECORD.md), written and replayed;
- :mod:`.errors`: the errors the rules raise;
- :mod:`.encoding`, :mod:`.cave` and :mod:`.features`: one round of many games at once
  as numpy arrays, and the numbers a player decides from, for the simulator and the
  computer players.
"""
