"""jupyter-chatdb: ask and update your notebook's data in plain language.

In a notebook: `%load_ext jupyter_chatdb`, then `%%chatdb`. From Python:
`ChatDB().ask("...")`.
"""

from .api import ChatDB
from .controller.events import Reply
from .errors import ChatDBError
from .kernel_memory.procedures import ProcedureBook
from .sql.rules import Rule

__version__ = "0.1.0"
__all__ = [
    "ChatDB",
    "ChatDBError",
    "ProcedureBook",
    "Reply",
    "Rule",
    "load_ipython_extension",
    "unload_ipython_extension",
]


def load_ipython_extension(ipython) -> None:
    from .magics.chatdb import ChatDBMagics
    from .magics.mem import MemMagics
    from .widgets.render import reply_html, reply_markdown

    magics = ChatDBMagics(shell=ipython)
    ipython.register_magics(magics)
    ipython.register_magics(MemMagics(ipython, magics))
    ipython.configurables.append(magics.settings)  # so `%config ChatDB` lists and sets the options
    formatters = ipython.display_formatter.formatters  # a Reply is plain data: shown by these renderers
    formatters["text/html"].for_type(Reply, reply_html)
    formatters["text/markdown"].for_type(Reply, reply_markdown)


def unload_ipython_extension(ipython) -> None:
    from .magics.chatdb import ChatDBMagics

    for mime in ("text/html", "text/markdown"):
        ipython.display_formatter.formatters[mime].pop(Reply, None)
    magics = ipython.magics_manager.registry.pop("ChatDBMagics", None)
    if isinstance(magics, ChatDBMagics):
        if magics.settings in ipython.configurables:
            ipython.configurables.remove(magics.settings)
        magics.close()
