"""Keeps the engine's own end out of a failed run's messages (the Python SDK's copy of sdk/engine-shutdown.ts).

When the engine refuses an input at preview, or a create fails, it reports that, then stops the program:

- A registration still under way in the program is refused (gRPC UNAVAILABLE), which the `pulumi` SDK turns into
  RunError("Resource monitor has terminated, shutting down"), and the language host (or the Automation API's
  server) logs it as an error under the Stack: the run's one error said twice. The guard logs that one message
  at debug level instead; every other error goes through as it is, and the run still fails with its own error.
- The language host sends the program SIGINT, which Python raises as KeyboardInterrupt wherever the program is:
  in about one failed run in six here, a traceback of 60 to 70 lines under the Stack (gRPC's, asyncio's). A
  program that the language host runs (an engine's monitor configured when this SDK is imported, the main
  thread, Python's own SIGINT handler in place) leaves at once on SIGINT instead, as a Node.js program does. A
  program with a SIGINT handler of its own, or run by the Automation API in the caller's process, keeps its own.

scripts/gen-sdks puts this file in the Python SDK as `pulumi_compute/_engine_shutdown.py`, imported first by the
package's `__init__.py`.
"""

import os
import signal
import sys
import threading

import pulumi
import pulumi.log
import pulumi.runtime.settings

# What the pulumi SDK's runtime/settings.py raises when the engine has gone (a RunError's text).
ENGINE_GONE = "Resource monitor has terminated, shutting down"

_INSTALLED = "_pulumi_compute_engine_shutdown"


def says_engine_gone(msg: object, resource: object = None) -> bool:
    """Whether an error logged with no resource only says the engine has gone (so there is no one to tell)."""
    return resource is None and isinstance(msg, str) and msg.rstrip(".") == ENGINE_GONE


def install() -> None:
    """Wraps `pulumi.log.error` (the language host and the Automation API call it through the module), once."""
    if getattr(pulumi.log, _INSTALLED, False):
        return
    error = pulumi.log.error

    def guarded(msg, resource=None, stream_id=None, ephemeral=None):
        if says_engine_gone(msg, resource):
            return pulumi.log.debug(msg)
        return error(msg, resource, stream_id, ephemeral)

    pulumi.log.error = guarded
    setattr(pulumi.log, _INSTALLED, True)
    install_interrupt()


def _leave(_signum, _frame):
    """The engine ends the program: leave now, with what was printed flushed, and no traceback."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)


def install_interrupt() -> bool:
    """Leaves at once on SIGINT in a program the language host runs; whether it did install."""
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        if pulumi.runtime.settings.get_monitor() is None:
            return False
    except Exception:  # pylint: disable=broad-except
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _leave)
    return True


install()
