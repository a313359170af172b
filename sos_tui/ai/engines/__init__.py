"""Outside engines: programs that play SOS through the SOS engine protocol
(``docs/engine-protocol.md``).

- ``protocol``: the protocol's lines, both ways, as values, with a strict parser for each way;
- ``client``: an engine program as a player (started, asked for moves, stopped), each
  misbehaviour an ``EngineError`` that says what it did;
- ``serve``: ``sos-tui engine``, our own levels speaking the protocol;
- ``forfeit``: the one place where an engine's misbehaviour ends its game.
"""
