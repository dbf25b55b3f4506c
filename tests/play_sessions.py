"""A play session started, a scenario run on it, and the session stopped, in one event loop."""

import asyncio


def run(session, scenario):
    async def main():
        await session.start()
        try:
            return await scenario(session)
        finally:
            await session.stop()
    return asyncio.run(main())
