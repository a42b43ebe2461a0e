"""``python -m pyramide_cli`` runs the ``pyramide`` command."""

from pyramide_cli.cli import main

if __name__ == "__main__":
    main()
