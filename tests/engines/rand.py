"""A random SOS engine: the example of docs/engine-protocol.md (a plain script, standard library)."""

import random
import sys

size, taken = 3, set()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "sos":
        print("id name Random\nid author sos-tui tests\nsosok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "newgame":
        size = int(words[2])
    elif words[0] == "position":
        taken = {move[1:] for move in words[2:]}
    elif words[0] == "go":
        cells = [f"{col}{row}" for col in "abcdefghijklmnopqrstuvwxyz"[:size] for row in range(1, size + 1)]
        free = [cell for cell in cells if cell not in taken]
        print(f"bestmove {random.choice('SO')}{random.choice(free)}", flush=True)
    elif words[0] == "quit":
        break
