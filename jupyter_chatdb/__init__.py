"""jupyter-chatdb: ask and update your notebook's data in plain language.

In a notebook: `%load_ext jupyter_chatdb`, then `%%chatdb`. From Python:
`ChatDB().ask("...")`.
"""

from .api import ChatDB
from .controller.events import Reply
from .errors import ChatDBError

__version__ = "0.1.0"
__all__ = ["ChatDB", "ChatDBError", "Reply", "load_ipython_extension", "unload_ipython_extension"]


def load_ipython_extension(ipython) -> None:  # type: ignore[no-untyped-def]
    from .magics.chatdb import ChatDBMagics

    magics = ChatDBMagics(shell=ipython)
    ipython.register_magics(magics)
    if magics not in ipython.configurables:
        ipython.configurables.append(magics)


def unload_ipython_extension(ipython) -> None:  # type: ignore[no-untyped-def]
    from .magics.chatdb import ChatDBMagics

    for magics in [c for c in ipython.configurables if isinstance(c, ChatDBMagics)]:
        ipython.configurables.remove(magics)
        magics.close()
