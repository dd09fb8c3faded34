"""Stands in for a person at the keyboard in the recorded example.

Usage: python drive_answers.py EXCHANGE_DIR ANSWER_1 [ANSWER_2 ...]

Waits for each prompt file of the exchange backend, then drops the next prepared answer
in place (written under a temporary name and renamed, as a person should do).
"""

import os
import sys
import time
from pathlib import Path


def main() -> None:
    folder = Path(sys.argv[1])
    for number, answer_file in enumerate(sys.argv[2:], 1):
        prompt = folder / f"prompt_{number:06d}.md"
        while not prompt.exists():
            time.sleep(0.2)
        part = folder / f"response_{number:06d}.md.part"
        part.write_text(Path(answer_file).read_text())
        os.replace(part, folder / f"response_{number:06d}.md")
        print("answered prompt", number, flush=True)


if __name__ == "__main__":
    main()
