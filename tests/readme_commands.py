"""The commands of the README's quick start, as a newcomer copies them."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]
