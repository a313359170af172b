"""What the tests share, and nothing else: ``helpers`` (the app's and the network's: a screen's
text, a server on port 0, players, a ``sos-tui`` process, and the one bounded wait: ``wait_for``,
and ``until`` where nothing is async), ``games`` (games as data), ``webpage`` (the browser page's)
and ``examples`` (how many cases a sampled check draws). No test module imports another."""
