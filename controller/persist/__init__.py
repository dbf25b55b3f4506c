"""What is kept on disk: the game journal (journal writes it, journal_reader reads it,
journal_replay replays it, journal_format says what a line may hold, games_folder lists the
journals, journal_recovery goes on after damage, export prints its game), where the files go
(game_files), the flight recorder's trace files (trace, flight_recorder), and a game in the
rules' notation (notation)."""
