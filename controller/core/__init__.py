"""The pure live core: frames in, recognised moves (reconcile), the referee's decisions (referee),
what the players see (view, signals, prompts), the clock and the computer's questions. No I/O:
time comes in with the calls."""
