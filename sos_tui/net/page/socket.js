// The WebSocket to the server the page came from (never another address), speaking
// docs/protocol.md: one JSON object per frame. A room's link comes back by itself after a drop,
// with the seat token this tab keeps for that room (sessionStorage: each tab its own seat).

export const PROTOCOL = 1;
export const MINOR = 2;
const FINAL = new Set([4000, 4001, 4003, 4004, 1008]); // replaced, protocol, refused, no room, closed for misbehaving

export function address(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/${path}`;
}

// One question to the server's own address (lobby, create): its first answer.
export function ask(message, timeout = 10000) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(address(""));
    const timer = setTimeout(() => { socket.close(); reject(new Error("timeout")); }, timeout);
    socket.onopen = () => socket.send(JSON.stringify(message));
    socket.onmessage = (event) => {
      clearTimeout(timer);
      socket.close();
      try { resolve(JSON.parse(event.data)); } catch (error) { reject(error); }
    };
    socket.onerror = () => { clearTimeout(timer); reject(new Error("unreachable")); };
  });
}

// The page's player key (docs/protocol.md, "Ratings"): made once, kept in localStorage, sent in
// hello so that a server's rated games know this browser's player again.
export function playerKey() {
  const kept = localStorage.getItem("sos-player-key");
  if (kept && /^[A-Za-z0-9_-]{32,64}$/.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  localStorage.setItem("sos-player-key", key);
  return key;
}

export function seatOf(code) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`sos-seat:${code}`));
    return kept && typeof kept.token === "string" ? kept : null;
  } catch { return null; }
}

export function keepSeat(code, token, name) {
  sessionStorage.setItem(`sos-seat:${code}`, JSON.stringify({ token, name }));
}

export function forgetSeat(code) {
  sessionStorage.removeItem(`sos-seat:${code}`);
}

export class Link {
  // on.message(message), on.open(again), on.lost(attempt), on.over(code)
  constructor(code, name, on) {
    this.code = code;
    this.name = name;
    this.on = on;
    this.attempt = 0;
    this.done = false;
    this.socket = null;
    this.opened = 0;
  }

  open() {
    const kept = seatOf(this.code);
    const socket = this.socket = new WebSocket(address(this.code));
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, minor: MINOR, name: this.name,
        token: kept ? kept.token : null, client: "sos-tui page", key: playerKey() }));
      this.on.open(this.opened++ > 0);
    };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message && typeof message.type === "string") {
        if (message.type === "welcome") this.attempt = 0;
        if (message.type === "closed") this.done = true;
        this.on.message(message);
      }
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      if (this.done || FINAL.has(event.code)) {
        this.done = true;
        this.on.over(event.code);
        return;
      }
      this.attempt += 1;
      this.on.lost(this.attempt);
      const wait = Math.min(8000, 500 * 2 ** Math.min(this.attempt - 1, 4));
      setTimeout(() => { if (!this.done) this.open(); }, wait);
    };
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.done = true;
    if (this.socket) this.socket.close(1000);
  }
}
