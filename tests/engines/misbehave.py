"""An engine that misbehaves in one way, named by its argument, once the game has begun (or in
the handshake, for the handshake cases); otherwise it plays the first empty cell. For the tests
of sos_tui/ai/engines/client.py.

    garbage  answers go with a line outside the protocol
    illegal  answers go with a move on a taken cell
    offboard answers go with a move off the board
    slow     answers go a second after its movetime
    hang     never answers go
    crash    exits when asked to move
    mute     never answers sos (the handshake hangs)
    silent   exits at once
    spawn    starts a child that sleeps, then hangs on go (the child must die with it)
    flood    answers go with 20,000 info lines before its move
"""

import subprocess
import sys
import time

case = sys.argv[1] if len(sys.argv) > 1 else ""
if case == "silent":
    sys.exit(3)
size, moves = 3, []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    head = words[0]
    if head == "sos" and case != "mute":
        print("id name Misbehave " + case + "\nsosok", flush=True)
    elif head == "isready":
        print("readyok", flush=True)
    elif head == "newgame":
        size = int(words[2])
    elif head == "position":
        moves = words[2:]
    elif head == "go":
        if case == "garbage":
            print("I think Sb2 is nice", flush=True)
        elif case == "illegal" and moves:
            print("bestmove " + moves[0], flush=True)
        elif case == "offboard":
            print("bestmove Sz26", flush=True)
        elif case == "slow":
            time.sleep(int(words[2]) / 1000 + 1)
        elif case in ("hang", "spawn"):
            if case == "spawn":
                print(
                    "info string child",
                    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]).pid,
                    flush=True,
                )
            time.sleep(60)
        elif case == "crash":
            sys.exit(1)
        elif case == "flood":
            sys.stdout.write("info string thinking\n" * 20_000)
        taken = {move[1:] for move in moves}
        free = [
            f"{c}{r}"
            for c in "abcdefghijklmnopqrstuvwxyz"[:size]
            for r in range(1, size + 1)
            if f"{c}{r}" not in taken
        ]
        print("bestmove S" + free[0], flush=True)
    elif head == "quit":
        break
