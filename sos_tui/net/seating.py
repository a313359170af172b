"""Who sits in a room and who watches it: a ``hello`` seats its connection (back in its seats by
its token, in the next open seat by its name, or as a spectator), and a connection that goes is
detached. ``RoomSeating`` is ``Room``'s part for them."""

from __future__ import annotations

import time
from dataclasses import replace

from sos_tui.i18n import N_, _

from .errors import ProtocolError
from .member import Member, background
from .protocol import REPLACED, ErrorMessage, HelloMessage, WelcomeMessage, token_hash
from .vocabulary import CloseReason, Phase, StateChange


class RoomSeating:
    """Mixed into ``Room``: its ``seats``, ``keys``, ``clients``, ``phase``, ``server``, ``endings``,
    ``votes``, ``turns``, ``mirrors``, ``headcount``, ``writes``, ``session``, ``rated`` and the
    rest of its state it reads and sets here."""

    def join(self, client: Member, hello: HelloMessage) -> WelcomeMessage:
        """Seat ``client`` (back in its seats by its token, in the next open seat by its name, or
        as a spectator); the ``welcome`` to send it. ProtocolError to refuse."""
        if self.closed:
            raise ProtocolError("no-room", N_("this game has ended"))
        name, token = hello.name, hello.token
        key_hash = token_hash(hello.key) if hello.key else None
        seats: tuple[int, ...] = ()
        if self.keys.seats_of(token):
            seats = self.keys.seats_of(token)
            self._check_names([self.seats[i].seat.name for i in seats], key_hash)
            for i in seats:
                old = self.seats[i].client
                if old is not None and old is not client:
                    old.send(ErrorMessage.of(
                        "replaced", N_("your seat was taken up by a new connection with your token")))
                    self._detach(old)
                    background(old.close(REPLACED, CloseReason.REPLACED))
            self.log(_("{names} reconnected").format(names=self.names(seats)))
        elif self.open_seats and self.phase is Phase.LOBBY and name is not None:
            taken = {s.seat.name.casefold() for s in self.seats if s.seat.name}
            if name.casefold() in taken:
                raise ProtocolError("name-taken", N_("someone in this game is already called {name}: join "
                                                     "with another --name"), name=name)
            self._check_names([name], key_hash)
            index = next(i for i, s in enumerate(self.seats) if s.seat.is_open)
            self.seats[index].seat = replace(self.seats[index].seat, name=name)
            token, seats = self.keys.give(index), (index,)
            self.log(_("{name} joined (seat {number})").format(name=name, number=index + 1))
        else:
            token = None
            if self.spectators >= self.server.limits.spectators_per_room:
                raise ProtocolError("full", N_("this game has as many spectators as it can take"))
            self.log(_("{name} is watching").format(name=name) if name else _("someone is watching"))
        client.room, client.seats, client.name, client.token = self, seats, name, token
        client.minor = hello.minor
        for i in seats:
            self.seats[i].client, self.seats[i].key_hash = client, key_hash
            if key_hash is not None and self.server.ratings is not None and self.seats[i].seat.name:
                self.server.ratings.claim(self.seats[i].seat.name, key_hash)
        self.endings.back(seats)
        if seats:
            self._sitters.add(token_hash(token))
            self.played = self.played or len(self._sitters) >= 2
        self.clients.add(client)
        self.active = time.monotonic()
        return WelcomeMessage(self.code, seats, token)

    def _check_names(self, names, key_hash: str | None) -> None:
        """In a rated room, a name that belongs to another key is refused (``name-taken``)."""
        if self.rated and self.server.ratings is not None:
            for name in names:
                if name:
                    self.server.ratings.check_name(name, key_hash)

    def joined(self, client: Member) -> None:
        """After the welcome went out: start the game once every seat is taken, else tell everyone;
        a spectator gets the room, and the others a headcount."""
        if not client.seats:
            self.writes.tell(self.mirrors.frames(self.state_message(), [client]))
            self.headcount.changed()
        elif self.session is None and not self.open_seats:
            self._start()
        else:
            self.send_state(StateChange.JOIN)

    def names(self, seats) -> str:
        return ", ".join(self.seats[i].seat.name or "?" for i in seats)

    def leave(self, client: Member) -> None:
        if client not in self.clients:
            return
        self._detach(client)
        if not client.seats:
            self.headcount.changed()
            return
        self.log(_("{names} left").format(names=self.names(client.seats)))
        self.send_state(StateChange.QUIT if client.bye else StateChange.LEAVE)

    def _detach(self, client: Member) -> None:
        self.clients.discard(client)
        self.mirrors.forget(client)
        for i in client.seats:
            if self.seats[i].client is client:
                self.seats[i].client = None
        self.votes.left(client.seats)
        self.endings.left(i for i in client.seats if self.seats[i].client is None)
        client.room = None
        if client.seats:
            self.turns.stop()  # the game waits for the seat
