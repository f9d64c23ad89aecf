"""A real WSGI server for API tests: the app on waitress, on a free loopback port, in a thread."""

from __future__ import annotations

import contextlib
import threading


@contextlib.contextmanager
def waitress_server(app):
    """The app served by a real waitress on a free loopback port, in a thread; yields the server."""
    from waitress.server import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        # closed from the server's own loop thread: closing its sockets from here races its select() (EBADF)
        if thread.is_alive():
            try:
                server.trigger.pull_trigger(server.close)
            except OSError:   # its trigger is closed already (once in a fresh-clone CI run): the loop is ending
                pass
        thread.join(timeout=10)
        assert not thread.is_alive()
