"""The `reedboard` command line: `cli` assembles the commands, each module here is one of them
(or what two of them share)."""
