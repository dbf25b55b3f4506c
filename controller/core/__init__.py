"""The pure live core: frames in, recognised moves (reconcile), the referee's decisions (referee),
what the players see (view, signals), the clock and the computer's questions. No I/O: time comes
in with the calls, and no words: prompts and notes are data, said by controller/words/."""
