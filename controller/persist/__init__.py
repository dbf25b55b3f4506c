"""What is kept on disk: the game journal, the flight recorder's trace files, the game record in
the rules' notation, and careful readers of the files people name."""
