"""A play session started, a scenario run on it, and the session stopped, in one event loop; a move
carried out on its simulated board by clicks, as a hand makes it (the tests and bench/snapshot_bytes.py)."""

import asyncio


def run(session, scenario):
    async def main():
        await session.start()
        try:
            return await scenario(session)
        finally:
            await session.stop()
    return asyncio.run(main())


async def carry_out(session, footprint, pause: float = 0.02) -> None:
    """The move of `footprint` by clicks, one `pause` after the other: lift what it empties and
    takes, put the pieces where it goes (one put back from beside the board taken from the box),
    the capturer where its victim stood, and what was taken into the box."""
    async def click(cell: str) -> None:
        if cell not in session.sim.occupied and not session.table.hand and session.table.box:
            session.take(0)  # a piece put back from beside the board
        session.click(cell)
        await asyncio.sleep(pause)

    for cell in sorted(footprint.empties | footprint.captures):
        await click(cell)
    for cell in sorted(footprint.fills):
        await click(cell)
    for cell in sorted(footprint.captures):  # the capturer lands where its victim stood
        await click(cell)
    while session.table.hand:  # what was taken goes to the box
        session.aside(0)
