"""What the tests share, and nothing else: ``helpers`` (the app's and the network's: a screen's
text, a server on port 0, players, a ``sos-tui`` process, the one bounded wait: ``wait_for``, and ``until``
where nothing is async),
``games`` (games as data) and ``webpage`` (the browser page's). No test module imports another."""
