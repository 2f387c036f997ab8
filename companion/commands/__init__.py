"""One module per `companion` subcommand."""
