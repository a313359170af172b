"""What one server allows (``Limits``): read by the server as it admits connections and by each
room as it seats spectators, takes votes and tells headcounts."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """What one server allows; every number is a bound on what clients can make it hold or do."""

    max_rooms: int = 2000  # more than 100 addresses hold (rooms_per_address each): a real host gets one
    max_connections: int = 5000
    connections_per_address: int = 32
    rooms_per_address: int = 10  # rooms created over the network, counted as long as each is open
    creates_per_minute: float = 10.0  # rooms created over the network, per address, on average
    create_burst: int = 5  # ... at once
    connects_per_second: float = 10.0  # new connections per address, on average
    connect_burst: int = 50  # ... at once
    spectators_per_room: int = 32
    hello_timeout: float = 10.0  # seconds to send the first message
    room_idle: float = 3600.0  # a room with no move or join this long is closed
    unplayed_idle: float = 600.0  # a room created over the network and not played, after it was made
    finished_linger: float = 300.0  # a finished game's room stays this long for late viewers
    rate: float = 10.0  # messages per second, on average
    burst: int = 20  # messages at once
    strikes: int = 5  # refused messages before the connection is closed
    undo_timeout: float = 60.0  # an undo request nobody answers is declined
    undo_cooldown: float = 30.0  # a seat whose undo was declined may ask again after this
    claim_after: float = 60.0  # a person gone this long may be claimed by the others (``claim``)
    presence_every: float = 0.5  # spectators coming and going: one headcount this often at most
    reap_every: float = 5.0
