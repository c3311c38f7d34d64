"""The zero-setup broker: kombu's filesystem transport, with messages that appear whole.

kombu's filesystem transport creates a message's file in the queue folder and then writes
it, under a lock its consumer never takes: a worker that polls between the two moves the
empty file away, fails to decode it and stops ("Unrecoverable error: JSONDecodeError"), and
the message is gone (kombu issue #1551). On ``make run`` that was a hint asked at the moment
the worker looked: the worker restarted, and the hint waited ten minutes for
``jobs.resend_queued``. Here a message is written under a name no consumer picks
(``….msg.part``) and renamed into place once whole; a rename within one folder is atomic, so
a consumer sees a message completely or not at all.

Settings select it for the ``filesystem://`` broker (``CELERY_BROKER_TRANSPORT``).
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

PART = ".part"  # a message being written: its name no longer ends in ".<queue>.msg"


class Channel(filesystem.Channel):
    # As kombu's filesystem.Channel._put, whose stubs differ from the base class's the same way.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        """Put ``payload`` onto ``queue``: named as kombu names it, appearing only whole."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            with open(path + PART, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(path + PART, path)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
